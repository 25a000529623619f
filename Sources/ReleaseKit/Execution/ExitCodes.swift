import Foundation

/// The exit codes `release` uses.
public enum ExitCodes {
    public static let success: Int32 = 0
    public static let stepFailed: Int32 = 1
    public static let gateRejected: Int32 = 2
    public static let usage: Int32 = 64
    public static let invalidPipeline: Int32 = 65
    public static let interrupted: Int32 = 130
}
