import Foundation

/// What a request sends: nothing, bytes in memory, a file streamed from disk, or a multipart form around a file.
///
/// Files are never read into memory: libcurl pulls them through a read callback with an explicit
/// Content-Length, so a 1 GB upload needs the same memory as a 1 KB one.
package enum HTTPBody: Sendable, Equatable {
    case empty
    case data(Data)
    /// The whole file at `path`, streamed.
    case file(path: String)
    /// `length` bytes of the file at `path` from byte `offset`, streamed (one part of a multi-part upload).
    case fileRange(path: String, offset: Int64, length: Int64)
    /// A `multipart/form-data` body with the file part streamed from disk.
    case multipart(MultipartForm)

    /// The `Content-Type` this body implies, if it implies one (multipart's boundary parameter).
    var impliedContentType: String? {
        if case .multipart(let form) = self { return form.contentType }
        return nil
    }
}
