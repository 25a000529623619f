import Foundation

/// The exit codes `release` uses.
package enum ExitCodes {
    package static let success: Int32 = 0
    package static let stepFailed: Int32 = 1
    package static let gateRejected: Int32 = 2
    package static let usage: Int32 = 64
    package static let invalidPipeline: Int32 = 65
    package static let interrupted: Int32 = 130
}
