import Foundation

/// What a step tells the engine while it works.
public enum StepEvent: Sendable, Equatable {
    case command(String)
    case log(String, OutputStreamKind)
    case warning(String)
    case progress(done: Int64, total: Int64?, unit: ProgressUnit)
}
