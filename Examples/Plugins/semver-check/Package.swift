// swift-tools-version:6.0
// An example step plugin in Swift: a package of its own, not part of release's build.
import PackageDescription

let package = Package(
    name: "semver-check",
    targets: [
        .executableTarget(name: "release-step-semver.check", path: "Sources/release-step-semver.check")
    ]
)
