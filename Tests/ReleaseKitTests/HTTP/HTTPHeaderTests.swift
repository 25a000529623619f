import Testing

@testable import ReleaseKit

@Suite struct HTTPHeaderTests {
    @Test func namesCompareCaseInsensitivelyInASCIIOnly() {
        #expect("Content-Type".equalsIgnoringASCIICase("content-TYPE"))
        #expect("ABCDEF0123".equalsIgnoringASCIICase("abcdef0123"))
        #expect(!"Content-Type".equalsIgnoringASCIICase("Content-Typ"))
        #expect(!"Content-Type".equalsIgnoringASCIICase("Content_Type"))
        // Pairs that differ by 0x20 but are not letters: '[' and '{', '@' and '`', '-' and '\r'.
        #expect(!"a[b".equalsIgnoringASCIICase("a{b"))
        #expect(!"@".equalsIgnoringASCIICase("`"))
        #expect(!"-".equalsIgnoringASCIICase("\r"))
        // Non-ASCII letters are compared as they are (header names are ASCII; nothing folds 'É' to 'é').
        #expect(!"É".equalsIgnoringASCIICase("é"))
        #expect("é".equalsIgnoringASCIICase("é"))
        #expect("".equalsIgnoringASCIICase(""))
    }

    @Test func requestsAndResponsesFindHeadersInAnyCase() {
        let request = HTTPRequest(method: "GET", url: "http://127.0.0.1/", headers: [(name: "X-Part", value: "3")])
        #expect(request.header("x-part") == "3")
        #expect(request.header("X-Parts") == nil)
        let response = HTTPResponse(status: 200, headers: [HTTPHeader(name: "retry-after", value: "7")])
        #expect(response.header("Retry-After") == "7")
    }
}
