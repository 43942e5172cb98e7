import Foundation

/// One part of a ``MultipartFormData``: what a ``MultipartFormDataBuilder`` block is made of.
///
/// ``TextField``, ``DataField`` and ``FileField`` are its three usual spellings; a part of your
/// own is a function that returns one:
/// ```swift
/// extension MultipartPart {
///     static func json(name: String, _ data: Data) -> MultipartPart {
///         MultipartPart(name: name, mimeType: "application/json", content: .data(data))
///     }
/// }
/// ```
public struct MultipartPart: Sendable, Equatable {
    /// Where the part's bytes come from.
    public enum Content: Sendable, Equatable {
        /// Bytes in memory.
        case data(Data)
        /// A file, streamed from disk when the request is sent.
        case file(URL)
    }

    /// The form field's name.
    public let name: String
    /// The file name announced to the server, if any.
    public let filename: String?
    /// The part's `Content-Type`, if any.
    public let mimeType: String?
    /// The part's bytes.
    public let content: Content

    /// Creates a part.
    public init(name: String, filename: String? = nil, mimeType: String? = nil, content: Content) {
        self.name = name
        self.filename = filename
        self.mimeType = mimeType
        self.content = content
    }

    /// A text field, sent as UTF-8 without a `Content-Type`: `TextField(name: "type", value: "driver-license")`.
    public init(name: String, value: String) {
        self.init(name: name, content: .data(Data(value.utf8)))
    }

    /// A file field whose bytes are in memory:
    /// `DataField(name: "file", filename: "file.pdf", data: pdfData, mimeType: "application/pdf")`.
    public init(name: String, filename: String? = nil, data: Data, mimeType: String = "application/octet-stream") {
        self.init(name: name, filename: filename, mimeType: mimeType, content: .data(data))
    }

    /// A file field streamed from disk when the request is sent, never loaded into memory:
    /// `FileField(name: "video", fileURL: movieURL, mimeType: "video/mp4")`. `filename` defaults
    /// to the file's last path component. The file must exist and be readable when the request
    /// is built, otherwise the request fails with ``RequestError/modify(_:_:)``.
    public init(name: String, fileURL: URL, filename: String? = nil, mimeType: String = "application/octet-stream") {
        self.init(name: name, filename: filename ?? fileURL.lastPathComponent, mimeType: mimeType, content: .file(fileURL))
    }
}
