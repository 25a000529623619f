import ReleaseKit
print(CurlRuntime.version)
print(ArchiveRuntime.version)
