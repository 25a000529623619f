# Homebrew formula for `release`, built from source with the Swift toolchain of Xcode 26 (Swift 6.2; the
# package's swift-subprocess needs it). Put it in a tap (owner/homebrew-tap/Formula/release.rb), then:
#   brew install owner/tap/release          # the tagged source below
#   brew install --HEAD owner/tap/release   # the main branch
# When Pipelines/self.json publishes vX.Y.Z, update `url` and `sha256` (shasum -a 256 of the tag's source tarball).
class Release < Formula
  desc "Run an iOS team's release as a graph of steps declared in JSON"
  homepage "https://github.com/owner/release"
  url "https://github.com/owner/release/archive/refs/tags/v0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  head "https://github.com/owner/release.git", branch: "main"

  depends_on xcode: ["26.0", :build]
  depends_on macos: :sequoia

  # The system's libraries (the SDK's .tbd stubs; Sources/CArchive/shim.h declares libarchive's functions, as the
  # SDK has no archive.h): the binary needs nothing from Homebrew to run.
  uses_from_macos "curl"
  uses_from_macos "libarchive"
  uses_from_macos "zlib"

  def install
    system "swift", "build", "-c", "release", "--disable-sandbox", "--product", "release"
    bin.install ".build/release/release"
    generate_completions_from_executable(bin/"release", "completion")
  end

  test do
    system bin/"release", "--version"
    (testpath/"Pipelines/hello.json").write <<~JSON
      {"version": 1, "name": "hello", "steps": [{"id": "hi", "uses": "print", "with": {"message": "hello"}}]}
    JSON
    system bin/"release", "validate", "Pipelines/hello.json"
  end
end
