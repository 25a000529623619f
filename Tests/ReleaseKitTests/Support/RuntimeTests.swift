import Testing

@testable import ReleaseArtifacts
@testable import ReleaseHTTP

@Test func linkedLibrariesReportVersions() {
    #expect(CurlRuntime.version.hasPrefix("libcurl/"))
    #expect(ArchiveRuntime.version.hasPrefix("libarchive "))
}
