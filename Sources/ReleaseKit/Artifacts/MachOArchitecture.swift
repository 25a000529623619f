/// Names of Mach-O CPU types and subtypes, as `lipo -archs` and `llvm-dwarfdump --uuid` print them.
///
/// Values from `<mach/machine.h>`; the top byte of the subtype holds capability bits and is ignored.
package enum MachOArchitecture {
    static let abi64: Int32 = 0x0100_0000
    static let abi64With32BitPointers: Int32 = 0x0200_0000
    static let x86: Int32 = 7
    static let arm: Int32 = 12
    static let powerPC: Int32 = 18

    /// The architecture's name (`arm64`, `arm64e`, `x86_64`, `armv7s`, `i386`, …); unknown pairs are
    /// spelled out (`cputype 0x…, subtype …`).
    package static func name(cpuType: Int32, cpuSubtype: Int32) -> String {
        let subtype = cpuSubtype & 0x00FF_FFFF
        switch cpuType {
        case x86:
            return "i386"
        case x86 | abi64:
            return subtype == 8 ? "x86_64h" : "x86_64"
        case arm:
            switch subtype {
            case 5: return "armv4t"
            case 6: return "armv6"
            case 7: return "armv5"
            case 8: return "xscale"
            case 9: return "armv7"
            case 10: return "armv7f"
            case 11: return "armv7s"
            case 12: return "armv7k"
            case 13: return "armv8"
            case 14: return "armv6m"
            case 15: return "armv7m"
            case 16: return "armv7em"
            default: return "arm"
            }
        case arm | abi64:
            return subtype == 2 ? "arm64e" : "arm64"
        case arm | abi64With32BitPointers:
            return "arm64_32"
        case powerPC:
            return "ppc"
        case powerPC | abi64:
            return "ppc64"
        default:
            return "cputype \(cpuType), subtype \(subtype)"
        }
    }

    /// The name of a Mach-O file type (`execute`, `dylib`, `bundle`, `dsym`, …).
    package static func fileTypeName(_ type: UInt32) -> String {
        switch type {
        case 0x1: return "object"
        case 0x2: return "execute"
        case 0x3: return "fvmlib"
        case 0x4: return "core"
        case 0x5: return "preload"
        case 0x6: return "dylib"
        case 0x7: return "dylinker"
        case 0x8: return "bundle"
        case 0x9: return "dylib_stub"
        case 0xA: return "dsym"
        case 0xB: return "kext_bundle"
        case 0xC: return "fileset"
        default: return "type \(type)"
        }
    }
}
