import Foundation

/// A `multipart/form-data` body (RFC 7578): a boundary and its parts, in order.
///
/// Build one with ``RequestModifiable/multipartFormData(boundary:_:)``:
/// ```swift
/// try await client.post("user/documents")
///     .multipartFormData {
///         TextField(name: "type", value: "driver-license")
///         FileField(name: "file", fileURL: scanURL, mimeType: "application/pdf")
///     }
///     .perform()
/// ```
/// The value is inspectable: a test can read ``parts`` to check what a request would send.
public struct MultipartFormData: Sendable, Equatable {
    /// The boundary line between parts. Unique per form unless given.
    public let boundary: String
    /// The parts, in the order they are sent.
    public let parts: [MultipartPart]

    /// Creates a form. The default boundary is random, so it cannot occur in the content by accident.
    public init(boundary: String = MultipartFormData.randomBoundary(), parts: [MultipartPart]) {
        self.boundary = boundary
        self.parts = parts
    }

    /// The value of the `Content-Type` header for this form.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Whether every part is in memory (no ``FileField``).
    var isInMemory: Bool {
        parts.allSatisfy { if case .data = $0.content { true } else { false } }
    }

    /// A fresh boundary: a fixed prefix and 128 random bits; the default of the public
    /// initialisers' `boundary`.
    @usableFromInline static func randomBoundary() -> String {
        "SwiftApiDsl-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
