import Foundation
import ReleaseGitHub
import ReleaseHTTP
import ReleaseSupport

/// `http.upload`: uploads a file to any HTTP endpoint, raw or as `multipart/form-data`.
///
/// For crash reporters' dSYM endpoints and tester distribution services. The file is streamed from disk
/// with an explicit Content-Length (the multipart envelope is built around it), with a stall timeout,
/// progress, and retries on connection errors, 5xx, 429 and rate-limit 403s. Header values that look like
/// credentials (names containing auth, token, key, secret, password, cookie) are registered as secrets,
/// so they are masked wherever the step's output goes; redirects are not followed, so headers reach only
/// the host named in `url`.
package struct HTTPUploadStep: Step {
    /// The step's `with` object.
    package struct Options: StepOptions {
        @StepOption(
            must: .beHTTPURL(credentials: "the URL must not contain credentials; send them in 'headers'"), help: "where to send the file (http or https; no credentials in the URL)"
        )
        package var url: String
        @StepOption(.path, help: "the file to upload, streamed from disk")
        package var file: String
        @StepOption(help: "POST or PUT")
        package var method: String = "POST"
        @StepOption(help: "extra header fields; values of auth/token/key/secret/password/cookie headers are masked")
        package var headers: [String: String] = [:]
        @StepOption(help: "Content-Type of a raw upload (default by extension)")
        package var contentType: String?
        @StepOption(help: "send a multipart/form-data form: 'fields' first, then the file in 'field' (default \"file\")")
        package var multipart: Multipart?
        @StepOption(range: 100...599, help: "statuses that count as success (default any 2xx)")
        package var expectStatus: [Int]?
        @StepOption(range: 1...10, help: "attempts in total on connection errors, 5xx, 429 and rate limits")
        package var attempts: Int = 5
        @StepOption(range: 1...86_400, help: "seconds without progress before the attempt is abandoned")
        package var stallTimeout: Int = 60
        @StepOption(.path, help: "CA bundle for TLS verification (default $SSL_CERT_FILE, else the system's)")
        package var cacert: String?

        package init() {}
    }

    /// `multipart`: send the file as one part of a form.
    package struct Multipart: OptionValue, Equatable {
        /// The form field of the file (default `file`).
        package var field: String?
        /// The file name announced (default the file's name).
        package var filename: String?
        /// The file part's type (default by extension).
        package var contentType: String?
        /// Text fields sent before the file.
        package var fields: [String: String]?

        enum CodingKeys: String, CodingKey {
            case field, filename, fields
            case contentType = "content_type"
        }

        package static func optionTypeName(_ format: OptionFormat) -> String { "{field, filename, content_type, fields}" }
    }

    package static let kind = "http.upload"
    package static let summary = "Upload a file to any HTTP endpoint, raw or multipart, streamed with retries"
    package static let outputs: [StepDocumentation.Output] = [
        .init("status", "number", "the HTTP status of the final response"),
        .init("body", "string", "the response body as text (its first 65,536 characters, secrets masked)"),
        .init("bytes", "number", "bytes of request body sent by the final attempt"),
    ]
    package static let example = """
        {"id": "upload-dsyms", "uses": "http.upload", "needs": ["dsyms"],
         "with": {"url": "https://upload.crash-reporter.example/dsym",
                  "file": "${steps.dsyms.outputs.path}",
                  "headers": {"X-API-Key": "${secrets.CRASH_REPORTER_KEY}"},
                  "multipart": {"field": "dsym", "fields": {"appVersion": "${steps.bump.outputs.version}"}}}}
        """

    package let options: Options
    let method: String

    package init(options: Options) throws {
        try options.validate()
        let method = options.method.uppercased()
        guard ["POST", "PUT"].contains(method) else {
            throw StepError.invalidOption("method", "'\(options.method)' is not POST or PUT")
        }
        for name in options.headers.keys {
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }) else {
                throw StepError.invalidOption("headers", "'\(name)' is not a valid header name")
            }
        }
        for value in options.headers.values where value.contains("\r") || value.contains("\n") {
            throw StepError.invalidOption("headers", "a header value contains a line break")
        }
        if options.multipart != nil && options.contentType != nil {
            throw StepError.invalidOption("content_type", "a multipart upload sets its own Content-Type; use multipart.content_type for the file part")
        }
        self.options = options
        self.method = method
    }

    static let secretHeaderWords = ["auth", "token", "key", "secret", "password", "cookie"]

    private func registerSecrets(_ context: StepContext) {
        for (name, value) in options.headers {
            let lower = name.lowercased()
            guard Self.secretHeaderWords.contains(where: lower.contains) else { continue }
            context.masker.add(value)
            // "Bearer abc", "token abc": the credential itself, too.
            if let credential = value.split(separator: " ").last, credential.count >= 8 { context.masker.add(String(credential)) }
        }
    }

    package func verify(in context: StepContext) async throws {
        registerSecrets(context)
        try context.requireFile(options.file, option: "file")
    }

    package func plan(in context: StepContext) async throws -> StepPlan {
        registerSecrets(context)
        let path = context.resolvePath(options.file)
        let size = context.files.size(path).map(ByteFormat.size) ?? "size known after upstream steps"
        let form = options.multipart.map { " as multipart field '\($0.field ?? "file")'" } ?? ""
        let headers = options.headers.keys.sorted().map { "\($0): \(context.masker.mask(options.headers[$0] ?? ""))" }
        let detail = "'\(path)' (\(size))\(form)" + (headers.isEmpty ? "" : "; headers " + headers.joined(separator: ", "))
        let url = try context.url(.http, for: options.url)
        return StepPlan(
            effects: [.request(method: method, url: context.masker.mask(HTTPRequest.redact(url)), detail: detail)],
            outputs: StepOutputs(["status": .number(0), "body": .string(""), "bytes": .number(0)])
        )
    }

    package func run(in context: StepContext) async throws -> StepOutputs {
        registerSecrets(context)
        let path = try context.requireFile(options.file, option: "file")
        let body: HTTPBody
        var headers = options.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        if let multipart = options.multipart {
            let fileName = multipart.filename ?? (path as NSString).lastPathComponent
            body = .multipart(
                MultipartForm(
                    fields: (multipart.fields ?? [:]).sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
                    fileField: multipart.field ?? "file", filePath: path, fileName: fileName,
                    fileContentType: multipart.contentType ?? AssetContentType.forFile(named: fileName)
                ))
        } else {
            body = .file(path: path)
            if !headers.contains(where: { $0.name.equalsIgnoringASCIICase("content-type") }) {
                headers.append((name: "Content-Type", value: options.contentType ?? AssetContentType.forFile(named: path)))
            }
        }
        let client = context.httpClient(for: .http) { configuration in
            configuration.retryPolicy = RetryPolicy(maxAttempts: options.attempts)
            configuration.caCertificateFile = options.cacert.map(context.resolvePath)
            configuration.stallTimeout = .seconds(options.stallTimeout)
        }
        let url = try context.url(.http, for: options.url)
        let request = HTTPRequest(method: method, url: url, headers: headers, body: body, maxResponseBytes: 1 << 20)
        context.log("\(method) \(HTTPRequest.redact(url)) ← '\(path)'")
        let response: HTTPResponse
        do {
            response = try await client.send(request) { sent, total in context.progress(done: sent, total: total) }
        } catch let error as HTTPError {
            throw StepError.failed(context.masker.mask(error.description))
        }
        let accepted = options.expectStatus.map { $0.contains(response.status) } ?? response.isSuccess
        // Masked before it is cut (SecretMasker.mask(_:limit:)): a secret the server echoes across the cut would
        // otherwise keep its first characters in clear.
        let answer = String(decoding: response.body, as: UTF8.self)
        guard accepted else {
            let snippet = context.masker.mask(answer.trimmingCharacters(in: .whitespacesAndNewlines), limit: 300)
            throw StepError.failed(
                context.masker.mask(
                    HTTPError.unexpectedStatus(method: method, url: HTTPRequest.redact(options.url), status: response.status, message: snippet).description
                ))
        }
        let text = context.masker.mask(answer, limit: 64 * 1024)
        context.log("HTTP \(response.status), \(ByteFormat.size(response.bytesSent)) sent")
        return StepOutputs([
            "status": .number(Double(response.status)),
            "body": .string(text),
            "bytes": .number(Double(response.bytesSent)),
        ])
    }
}
