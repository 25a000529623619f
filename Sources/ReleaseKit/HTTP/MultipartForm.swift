import Foundation

/// A `multipart/form-data` body: text fields, then one file part streamed from disk.
///
/// The envelope (boundaries and part headers) is built in memory; the file between them is read in
/// chunks, so the total length is known up front and sent as Content-Length (some crash reporters
/// reject chunked uploads).
package struct MultipartForm: Sendable, Equatable {
    /// Text fields, in order.
    package var fields: [(name: String, value: String)]
    /// The form field that carries the file.
    package var fileField: String
    /// The file to stream.
    package var filePath: String
    /// The file name announced in `Content-Disposition`.
    package var fileName: String
    /// The file part's `Content-Type`.
    package var fileContentType: String
    /// The boundary; random by default.
    package var boundary: String

    package init(
        fields: [(name: String, value: String)] = [],
        fileField: String,
        filePath: String,
        fileName: String? = nil,
        fileContentType: String = "application/octet-stream",
        boundary: String = "release-boundary-\(UInt64.random(in: 0...UInt64.max))"
    ) {
        self.fields = fields
        self.fileField = fileField
        self.filePath = filePath
        self.fileName = fileName ?? (filePath as NSString).lastPathComponent
        self.fileContentType = fileContentType
        self.boundary = boundary
    }

    /// `multipart/form-data; boundary=…`.
    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The bytes before the file's contents.
    var head: Data {
        var text = ""
        for field in fields {
            text += "--\(boundary)\r\n"
            text += "Content-Disposition: form-data; name=\"\(Self.quoted(field.name))\"\r\n\r\n"
            text += field.value + "\r\n"
        }
        text += "--\(boundary)\r\n"
        text += "Content-Disposition: form-data; name=\"\(Self.quoted(fileField))\"; filename=\"\(Self.quoted(fileName))\"\r\n"
        text += "Content-Type: \(fileContentType)\r\n\r\n"
        return Data(text.utf8)
    }

    /// The bytes after the file's contents.
    var tail: Data { Data("\r\n--\(boundary)--\r\n".utf8) }

    /// Escapes a name for a quoted `Content-Disposition` parameter (WHATWG's form encoding rules).
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    package static func == (lhs: MultipartForm, rhs: MultipartForm) -> Bool {
        lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
            && lhs.fileField == rhs.fileField && lhs.filePath == rhs.filePath && lhs.fileName == rhs.fileName
            && lhs.fileContentType == rhs.fileContentType && lhs.boundary == rhs.boundary
    }
}
