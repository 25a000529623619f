@testable import ReleaseSteps

extension StepOptions {
    /// Options built in code, the one way tests build them besides decoding a `with` object: the declaration
    /// (`Self()`, every option at its declared default) with the properties `set` assigns.
    ///
    /// ```swift
    /// try ArchiveZipStep(options: .with { $0.source = "a"; $0.output = "a.zip"; $0.level = 0 })
    /// ```
    static func with(_ set: (inout Self) -> Void) -> Self {
        var options = Self()
        set(&options)
        return options
    }
}
