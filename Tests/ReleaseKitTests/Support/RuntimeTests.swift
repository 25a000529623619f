import Testing

@testable import ReleaseKit

@Test func linkedLibrariesReportVersions() {
    #expect(CurlRuntime.version.hasPrefix("libcurl/"))
    #expect(ArchiveRuntime.version.hasPrefix("libarchive "))
}
