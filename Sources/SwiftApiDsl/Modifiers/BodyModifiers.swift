import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Body modifiers. Each replaces any body set before and sets `Content-Type`: the JSON, form and
// multipart ones always, `body` and `uploadFile` only when no `Content-Type` is set yet.

extension RequestModifier {
    /// Sends `data` as the body. `Content-Type` becomes `contentType` unless one is already set
    /// (URLSession would otherwise label it `application/x-www-form-urlencoded`).
    public static func body(_ data: Data, contentType: String = "application/octet-stream") -> RequestModifier {
        .init(editing: { request in
            request.setBody(data)
            request.setContentTypeIfMissing(contentType)
        })
    }

    /// Sends `value` as JSON, encoded with `jsonEncoder`, else the request's encoder, else the
    /// client's, and sets `Content-Type: application/json`. An encoding error fails the request
    /// as ``RequestError/modify(_:_:)``. It takes what `Endpoint(body:)` takes, so a model whose
    /// conformance is isolated to the main actor (an app target's default) is accepted by both;
    /// `post(_:body:)` takes any `Encodable`, since it encodes at once, where it is called.
    public static func jsonBody(_ value: any Encodable & Sendable, jsonEncoder: JSONEncoder? = nil) -> RequestModifier {
        .init(editingDraft: { draft in
            draft.request.setBody(try (jsonEncoder ?? draft.jsonEncoder).encode(value))
            draft.request.headerFields.set("application/json", for: HeaderField.contentType.rawValue)
        })
    }

    /// Sends `fields` as `application/x-www-form-urlencoded`, sorted by name.
    public static func formUrlEncoded(_ fields: [String: String]) -> RequestModifier {
        formUrlEncoded(fields.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// Sends `fields` as `application/x-www-form-urlencoded`, in order (space as `+`).
    public static func formUrlEncoded(_ fields: [URLQueryItem]) -> RequestModifier {
        let body = Data(PercentEncoding.form(fields).utf8)
        return .init(editing: { request in
            request.setBody(body)
            request.headerFields.set("application/x-www-form-urlencoded", for: HeaderField.contentType.rawValue)
        })
    }

    /// Streams the file at `fileURL` as the body, with its `Content-Length`, never loading it
    /// into memory. `Content-Type` becomes `contentType` unless one is already set.
    public static func uploadFile(_ fileURL: URL, contentType: String = "application/octet-stream") -> RequestModifier {
        .init(editing: { request in
            let body = RequestBody.file(fileURL)
            _ = try body.contentLength() // fails here, as `.modify`, if the file cannot be sent
            request.setBody(body)
            request.setContentTypeIfMissing(contentType)
        })
    }

    /// Sends a `multipart/form-data` body built from fields; see ``MultipartFormData``.
    ///
    /// ```swift
    /// .multipartFormData {
    ///     TextField(name: "type", value: "driver-license")
    ///     DataField(name: "file", filename: "file.pdf", data: fileData, mimeType: "application/pdf")
    /// }
    /// ```
    public static func multipartFormData(
        boundary: String = MultipartFormData.randomBoundary(),
        @MultipartFormDataBuilder _ fields: () -> [MultipartPart]
    ) -> RequestModifier {
        let form = MultipartFormData(boundary: boundary, parts: fields())
        return .init(editing: { request in
            let body = RequestBody.multipart(form)
            _ = try body.contentLength() // fails here, as `.modify`, if a file cannot be sent
            request.setBody(body)
            request.headerFields.set(form.contentType, for: HeaderField.contentType.rawValue)
        })
    }
}

extension TransportRequest {
    /// Sets `Content-Type` to `contentType` unless one is set already.
    mutating func setContentTypeIfMissing(_ contentType: String) {
        let field = HeaderField.contentType.rawValue
        if headerFields[field] == nil { headerFields.set(contentType, for: field) }
    }
}

extension RequestModifiable {
    /// Sends `data` as the body.
    public func body(_ data: Data, contentType: String = "application/octet-stream") -> Self {
        modifier(.body(data, contentType: contentType))
    }
    /// Sends `value` as JSON.
    public func jsonBody(_ value: any Encodable & Sendable, jsonEncoder: JSONEncoder? = nil) -> Self {
        modifier(.jsonBody(value, jsonEncoder: jsonEncoder))
    }
    /// Sends `fields` as `application/x-www-form-urlencoded`, sorted by name.
    public func formUrlEncoded(_ fields: [String: String]) -> Self { modifier(.formUrlEncoded(fields)) }
    /// Sends `fields` as `application/x-www-form-urlencoded`, in order.
    public func formUrlEncoded(_ fields: [URLQueryItem]) -> Self { modifier(.formUrlEncoded(fields)) }
    /// Streams a file as the body.
    public func uploadFile(_ fileURL: URL, contentType: String = "application/octet-stream") -> Self {
        modifier(.uploadFile(fileURL, contentType: contentType))
    }
    /// Sends a `multipart/form-data` body built from fields.
    public func multipartFormData(
        boundary: String = MultipartFormData.randomBoundary(),
        @MultipartFormDataBuilder _ fields: () -> [MultipartPart]
    ) -> Self {
        modifier(.multipartFormData(boundary: boundary, fields))
    }
}
