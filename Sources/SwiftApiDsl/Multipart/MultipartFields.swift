/// A text field of a multipart form, sent as UTF-8 without a `Content-Type`:
/// a ``MultipartPart`` made by ``MultipartPart/init(name:value:)``.
///
/// ```swift
/// TextField(name: "type", value: "driver-license")
/// ```
public typealias TextField = MultipartPart

/// A file field of a multipart form whose bytes are in memory: a ``MultipartPart`` made by
/// ``MultipartPart/init(name:filename:data:mimeType:)``.
///
/// ```swift
/// DataField(name: "file", filename: "file.pdf", data: pdfData, mimeType: "application/pdf")
/// ```
public typealias DataField = MultipartPart

/// A file field of a multipart form whose bytes are streamed from disk when the request is sent:
/// a ``MultipartPart`` made by ``MultipartPart/init(name:fileURL:filename:mimeType:)``.
///
/// ```swift
/// FileField(name: "video", fileURL: movieURL, mimeType: "video/mp4")
/// ```
public typealias FileField = MultipartPart
