// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "release",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "release", targets: ["release"]),
        .library(name: "ReleaseKit", targets: ["ReleaseKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // XcodeGen specs (project.yml) for the version engine.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        // zlib's raw deflate, for the parallel zip writer: libarchive compresses one entry at a time on one
        // thread, so the writer deflates chunks on every core itself and writes the zip container around them.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(
            name: "ReleaseKit",
            dependencies: [
                "CCurl",
                "CArchive",
                "CZlib",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "release",
            dependencies: [
                "ReleaseKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ReleaseKitTests",
            dependencies: ["ReleaseKit"],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["ReleaseKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
