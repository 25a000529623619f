import ReleaseTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only when `piece` of `../shared` is there, or when RELEASE_REQUIRE_SHARED=1 makes a
    /// missing one a failure; otherwise skips it saying what is missing and how to get it (``SharedReference``).
    static func needsShared(_ piece: SharedReference.Piece) -> Self {
        .enabled(if: SharedReference.runs(piece), Comment(rawValue: SharedReference.reason(piece)))
    }
}
