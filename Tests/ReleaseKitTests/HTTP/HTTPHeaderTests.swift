import Foundation
import Testing

@testable import ReleaseHTTP

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

    /// `hostWithoutIDNA` answers what `host` answers, whatever the URL: written hosts, upper case, IP addresses
    /// and IP literals, internationalised names (written or encoded), percent escapes, empty and missing hosts.
    @Test(arguments: [
        "https://api.github.com/repos", "http://127.0.0.1:8080/", "HTTPS://API.GitHub.COM", "http://localhost",
        "http://[::1]:9000/x", "https://xn--bcher-kva.example/", "https://XN--BCHER-KVA.example", "https://bücher.example/",
        "http://a%41b.example/", "http:///path", "file:///tmp/x", "mailto:someone@example.com", "https://user:pw@host.example/",
        "http://a..b.example", "http://-lead.example", "http://ab--cd.example", "http://under_score.example/",
        "https://" + String(repeating: "a", count: 2100) + ".example/",
    ])
    func hostWithoutIDNAIsHost(url: String) {
        guard let components = URLComponents(string: url) else { return }  // nothing to compare
        #expect(components.hostWithoutIDNA == components.host)
    }
}
