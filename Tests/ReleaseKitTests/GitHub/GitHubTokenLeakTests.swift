import Foundation
import Rehearsal
import Testing

@testable import ReleaseGitHub
@testable import ReleaseHTTP
@testable import ReleaseSteps
@testable import ReleaseSupport

/// Runs publishes with faults, failures and both steps, collects every message they produce and every
/// request the server saw, and checks the token appears only in `Authorization` headers: never as is,
/// URL-encoded or base64-encoded anywhere else.
@Suite("GitHub token never leaks")
struct GitHubTokenLeakTests {
    static let token = "ghp_Leak+Test/Token=With&Odd%Chars_0123456789"

    static func forms(_ secret: String) -> [String] {
        [
            secret,
            secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!,
            URITemplate.encode(secret),
            Data(secret.utf8).base64EncodedString(),
        ]
    }

    @Test func tokenAppearsOnlyInAuthorizationHeaders() async throws {
        let fixture = try GitHubTestFixture(token: Self.token)
        var texts: [String] = []
        let zip = try fixture.file("Demo.xcarchive.zip", size: 400_000)
        let dsym = try fixture.file("Demo.app.dSYM.zip", size: 20_000, seed: 4)

        // A publish through every fault.
        for fault in GitHubReleasePublisherTests.recoverableFaults { fixture.server.addFault(.upload(fault)) }
        fixture.server.addFault(LocalServerFaultRule(route: .listAssets, fault: .status(500, message: "boom")))
        let result = try await fixture.publisher(attempts: 8).publish(fixture.publication([zip, dsym]))
        texts.append("\(result)")

        // Retries running out.
        fixture.server.addFault(.upload(.badGatewayAfterBody, times: 5))
        do {
            _ = try await fixture.publisher(attempts: 2).publish(fixture.publication([zip], tag: "v2"))
        } catch {
            texts.append("\(error)")
        }
        fixture.server.clearFaults()

        // A wrong token that contains the real one (so a leak of either shows).
        do {
            _ = try await fixture.publisher(token: Self.token + "x").preflight(fixture.publication([zip]))
        } catch {
            texts.append("\(error)")
        }

        // The steps: plan, run, and a failing http.upload, events recorded.
        let events = Recorder<StepEvent>()
        let context = StepContext(
            stepID: "publish", kind: GitHubReleaseStep.kind, workingDirectory: fixture.directory + "/files",
            environment: [:], endpoints: ServiceEndpoints(overrides: [.github: fixture.url]), sink: { events.append($0) }
        )
        let tokenJSON = Self.token.replacingOccurrences(of: "/", with: "\\/")
        let step = try GitHubReleaseStep(
            options: try decodeOptions(
                GitHubReleaseStep.Options.self,
                """
                {"repo": "octo/app", "token": "\(tokenJSON)", "tag": "v3", "assets": ["*.zip"]}
                """))
        try await step.verify(in: context)
        let plan = try await step.plan(in: context)
        texts.append("\(plan)")
        texts.append("\(try await step.run(in: context))")
        let upload = try HTTPUploadStep(
            options: try decodeOptions(
                HTTPUploadStep.Options.self,
                """
                {"url": "\(fixture.url)/nowhere", "file": "Demo.app.dSYM.zip", "headers": {"Authorization": "token \(tokenJSON)"}}
                """))
        texts.append("\(try await upload.plan(in: context))")
        do {
            _ = try await upload.run(in: context)
        } catch {
            texts.append("\(error)")
        }

        texts += fixture.allLogs
        texts += events.all.map { "\($0)" }
        let requests = fixture.server.requests
        #expect(requests.count > 30)
        var authorizations: Set<String> = []
        for request in requests {
            texts.append(request.method + " " + request.target)
            texts += request.headers.filter { $0.name.lowercased() != "authorization" }.map { "\($0.name): \($0.value)" }
            if let authorization = request.header("Authorization") { authorizations.insert(authorization) }
        }
        // Exactly the three the test sends: the token, the wrong token, and `http.upload`'s own header.
        #expect(authorizations == ["Bearer \(Self.token)", "Bearer \(Self.token)x", "token \(Self.token)"])
        // The server's stored state, too.
        texts.append(String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: fixture.directory + "/server/state.json"))) ?? Data(), as: UTF8.self))

        #expect(texts.count > 100)
        for form in Self.forms(Self.token) {
            let leaks = texts.filter { $0.contains(form) }
            #expect(leaks.isEmpty, "token form '\(form.prefix(6))…' leaked in: \(leaks.first.map { String($0.prefix(200)) } ?? "")")
        }
        // And the masker catches the forms it promises (raw, percent-encoded, base64) should one get through.
        // (It does not yet know the RFC 3986 unreserved-set encoding, `URITemplate.encode`; reported to the lead.)
        let masker = SecretMasker(secrets: [Self.token])
        for form in Self.forms(Self.token) where form != URITemplate.encode(Self.token) {
            #expect(masker.mask("x \(form) y") == "x *** y")
        }
    }
}
