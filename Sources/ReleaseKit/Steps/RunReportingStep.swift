/// A step that reports on the run rather than taking part in it (`notify.slack`).
///
/// The engine schedules it like an `always` step without the pipeline saying so: it starts once every step it
/// follows (its `needs` and what they need, or with no `needs` every other step) has finished, whatever their
/// outcome, also after an interrupt, and finds how they went in ``StepContext/run``. Whether it then does anything
/// (`on: failure`) is its own decision; one that decides not to throws ``StepError/unavailable(_:)`` and is
/// reported as skipped with its reason.
package protocol RunReportingStep: Step {}
