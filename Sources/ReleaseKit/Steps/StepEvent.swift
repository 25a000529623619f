import Foundation
import ReleaseSupport

/// What a step tells the engine while it works.
package enum StepEvent: Sendable, Equatable {
    case command(String)
    case log(String, OutputStreamKind)
    case warning(String)
    case progress(done: Int64, total: Int64?, unit: ProgressUnit)
}
