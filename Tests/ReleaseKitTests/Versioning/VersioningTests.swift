import Testing

/// The version engine's suites, grouped so `swift test --filter Versioning` runs all of them.
@Suite enum VersioningTests {}
