import Foundation

/// Anything that can stand in a ``MultipartFormDataBuilder`` block.
public protocol MultipartField: Sendable {
    /// The part this field sends.
    var part: MultipartPart { get }
}

/// A text field of a multipart form, sent as UTF-8 without a `Content-Type`.
///
/// ```swift
/// TextField(name: "type", value: "driver-license")
/// ```
public struct TextField: MultipartField {
    public let part: MultipartPart

    /// Creates a text field.
    public init(name: String, value: String) {
        part = MultipartPart(name: name, content: .data(Data(value.utf8)))
    }
}

/// A file field of a multipart form whose bytes are in memory.
///
/// ```swift
/// DataField(name: "file", filename: "file.pdf", data: pdfData, mimeType: "application/pdf")
/// ```
public struct DataField: MultipartField {
    public let part: MultipartPart

    /// Creates a field from bytes in memory.
    public init(name: String, filename: String? = nil, data: Data, mimeType: String = "application/octet-stream") {
        part = MultipartPart(name: name, filename: filename, mimeType: mimeType, content: .data(data))
    }
}

/// A file field of a multipart form whose bytes are streamed from disk when the request is sent;
/// the file is never loaded into memory.
///
/// ```swift
/// FileField(name: "video", fileURL: movieURL, mimeType: "video/mp4")
/// ```
/// The file must exist and be readable when the request is built, otherwise the request fails
/// with ``RequestError/modify(_:_:)``.
public struct FileField: MultipartField {
    public let part: MultipartPart

    /// Creates a field from a file. `filename` defaults to the file's last path component.
    public init(name: String, fileURL: URL, filename: String? = nil, mimeType: String = "application/octet-stream") {
        part = MultipartPart(
            name: name,
            filename: filename ?? fileURL.lastPathComponent,
            mimeType: mimeType,
            content: .file(fileURL)
        )
    }
}
