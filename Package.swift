// swift-tools-version:6.0
import PackageDescription

/// A C library the system provides. On Linux its headers come from a distribution package, found with pkg-config.
/// On a Mac every one is part of the OS and of Xcode's SDK (usr/lib/libcurl.tbd, libz.tbd and libarchive.tbd, all
/// universal; curl/curl.h and zlib.h in usr/include; libarchive has no header there, so Sources/CArchive/shim.h
/// declares what we call): nothing to install and no Homebrew hint, and nothing found through Homebrew's pkg-config
/// files, so the binary links only libraries every Mac has (`scripts/package.sh` checks with `otool -L`).
func cLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    #if os(macOS)
    return .systemLibrary(name: name)
    #else
    return .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
    #endif
}

/// The folders of Sources/ReleaseKit, bottom layer first: each is the target `Release<folder>`.
let layers = ["Support", "HTTP", "Artifacts", "Versioning", "Apple", "AppStoreConnect", "GitHub", "Sentry", "Steps", "Pipeline", "Planning", "Execution"]

/// One layer of ReleaseKit: the target `Release<folder>` of the sources in Sources/ReleaseKit/<folder>.
func layer(_ folder: String, _ dependencies: [Target.Dependency]) -> Target {
    .target(name: "Release\(folder)", dependencies: dependencies, path: "Sources/ReleaseKit/\(folder)")
}

let package = Package(
    name: "release",
    // Mutex, Atomic and task executors (Synchronization, Swift 6) need macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "release", targets: ["release"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        // XcodeGen specs (project.yml) for the version engine.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // X.509 certificates, certificate signing requests and CMS for `signing.sync` and its stand-in.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        // Already in the graph (swift-certificates and swift-crypto read ASN.1 with it; swift-nio uses
        // swift-collections): named here because ReleaseKit uses them directly, which fetches nothing new.
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.1.0"),
        // What the generated App Store Connect contract (Sources/ReleaseKit/AppStoreConnect/Generated, made by
        // scripts/generate-appstore-contract.sh with swift-openapi-generator 1.14.3) builds on; brings swift-http-types.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    ],
    targets: [
        cLibrary("CCurl", pkgConfig: "libcurl", apt: "libcurl4-openssl-dev"),
        cLibrary("CArchive", pkgConfig: "libarchive", apt: "libarchive-dev"),
        // zlib's raw deflate, for the parallel zip writer: libarchive compresses one entry at a time on one
        // thread, so the writer deflates chunks on every core itself and writes the zip container around them.
        cLibrary("CZlib", pkgConfig: "zlib", apt: "zlib1g-dev"),
        // What scripts/package.sh stamps into the binary (the repository it is published in), as a C macro: one
        // header, nothing to link.
        .systemLibrary(name: "CReleaseStamp"),
        // ReleaseKit's layers (DESIGN.md §2), one target per folder of Sources/ReleaseKit, each depending only on
        // layers below it, so the compiler refuses an upward or sideways use:
        //   Execution → Planning → Pipeline → Steps → {Apple, AppStoreConnect, GitHub, Sentry} → {Versioning, Artifacts}
        //   → HTTP → Support.
        // Declarations another target uses are `package`; nothing outside this package links these libraries.
        layer(
            "Support",
            [
                // What scripts/package.sh stamps into the binary (`ReleaseKitVersion`).
                "CReleaseStamp",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                // Subprocess spells paths with `FilePath`: the SDK's System module on Apple platforms, this package elsewhere.
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ]
        ),
        // Only HTTP sees libcurl.
        layer("HTTP", ["ReleaseSupport", "CCurl"]),
        // Only Artifacts sees libarchive and zlib.
        layer(
            "Artifacts",
            [
                "ReleaseSupport", "CArchive", "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                // BER of the CMS envelope around provisioning profiles.
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        layer("Versioning", ["ReleaseSupport", .product(name: "Yams", package: "Yams")]),
        layer("Apple", ["ReleaseArtifacts", "ReleaseSupport"]),
        layer(
            "AppStoreConnect",
            [
                "ReleaseArtifacts", "ReleaseHTTP", "ReleaseSupport", "ReleaseVersioning",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                // RSA keys of signing certificates (PKCS #1 for the keychain import).
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // App Store Connect's request and response documents, generated from Apple's OpenAPI contract.
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        layer("GitHub", ["ReleaseHTTP", "ReleaseSupport"]),
        layer("Sentry", ["ReleaseHTTP"]),
        layer(
            "Steps",
            [
                "ReleaseAppStoreConnect", "ReleaseApple", "ReleaseArtifacts", "ReleaseGitHub", "ReleaseHTTP", "ReleaseSentry",
                "ReleaseSupport", "ReleaseVersioning",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        layer(
            "Pipeline",
            [
                "ReleaseGitHub", "ReleaseSteps", "ReleaseSupport", "ReleaseVersioning",
                // The scheduler's ready queue.
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        layer("Planning", ["ReleaseHTTP", "ReleasePipeline", "ReleaseSteps", "ReleaseSupport"]),
        layer(
            "Execution",
            [
                "ReleaseAppStoreConnect", "ReleaseApple", "ReleaseHTTP", "ReleasePipeline", "ReleasePlanning", "ReleaseSentry",
                "ReleaseSteps", "ReleaseSupport", "ReleaseVersioning",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The local stand-ins for remote services (`release run --rehearse`, `release github-server`, the tests):
        // HTTP/1.1 servers on SwiftNIO, which owns the sockets and their Darwin/Glibc differences.
        .target(
            name: "Rehearsal",
            dependencies: [
                "ReleaseAppStoreConnect", "ReleaseGitHub", "ReleaseHTTP", "ReleaseSentry", "ReleaseSteps", "ReleaseSupport",
                "ReleaseVersioning",
                // P-256 signatures of App Store Connect tokens (the stand-in verifies them itself).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Certificates issued from CSRs and CMS-signed provisioning profiles; an RSA key for rehearsals.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "release",
            dependencies: [
                "ReleaseAppStoreConnect", "ReleaseArtifacts", "ReleaseExecution", "ReleaseGitHub", "ReleaseHTTP", "ReleasePipeline",
                "ReleasePlanning", "ReleaseSteps", "ReleaseSupport", "ReleaseVersioning", "Rehearsal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What both test targets use: the per-process temporary folder (a plain target, so it is written once).
        .target(name: "ReleaseTestSupport", path: "Tests/ReleaseTestSupport"),
        .testTarget(
            name: "ReleaseKitTests",
            dependencies: layers.map { .target(name: "Release\($0)") } + ["Rehearsal", "ReleaseTestSupport"],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ReleaseAppStoreConnect", "ReleaseGitHub", "ReleaseHTTP", "ReleasePipeline", "ReleaseSentry", "ReleaseSteps",
                "ReleaseSupport", "ReleaseVersioning", "Rehearsal", "ReleaseTestSupport",
            ],
            exclude: ["Snapshots"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
