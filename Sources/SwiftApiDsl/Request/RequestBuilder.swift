import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request being described: started by an ``ApiClient`` (`client.get("users/7")`), shaped
/// by modifiers and validators, then sent with `perform()` or `download(destination:)`.
///
/// It is a value: each call returns a new builder, and nothing is sent until you perform it,
/// so a builder can be kept and performed several times. It holds the same description of a
/// call as an ``Endpoint``, bound to its client; ``endpoint`` gives it back without the client.
///
/// **Paths.** `path` is appended to the base URL's path: base `https://h/api/v1` (with or
/// without a trailing slash) and `users/7` or `/users/7` give `https://h/api/v1/users/7`.
/// A trailing slash is kept (`books/` → `…/books/`). The path is literal text: every
/// character other than letters, digits, `/` and `-._~!$'()*,;:@` is percent-encoded,
/// including `?`, `#`, `%`, `+`, `&`, `=`, spaces and non-ASCII text; add queries with
/// ``RequestModifiable/queryItem(name:_:)``. The base URL's query items are kept.
/// A path with a control character (such as a newline), or a base URL without a scheme and
/// host, fails the request as ``RequestError/modify(_:_:)``.
///
/// **Absolute URLs.** A request started from a URL (`client.request(url: nextLink)`) goes to
/// that URL as is, through the same modifiers and validators. The client's authentication is
/// added only when the URL's origin (scheme, host and port) is the base URL's, so a link to
/// another server never receives your credentials; opt in with ``authenticatingAnyOrigin()``.
public struct RequestBuilder: RequestModifiable, ResponseValidatable {
    // The type itself declares only `perform` and `download` (RequestBuilder+Perform.swift); what
    // describes the request and the calls that change it live in constrained extensions below,
    // which editors rank after the type's own members.

    /// The client; read it as `client`.
    let storedClient: ApiClient
    /// What the call is: the same description an endpoint holds.
    var call: CallDescription

    init(client: ApiClient, call: CallDescription) {
        self.storedClient = client
        self.call = call
    }

    /// A call started by `client`; `body` (which need not be `Sendable`) is encoded now, with
    /// `jsonEncoder`, else the client's encoder.
    /// The way the request is performed.
    var pipeline: RequestPipeline { RequestPipeline(client: storedClient, call: call) }

    init(client: ApiClient, method: HttpMethod, path: String?, url: URL? = nil, bypassAuth: Bool, body: (any Encodable)?, jsonEncoder: JSONEncoder?) {
        let encoded = body.map { JSONBody(encodingNow: $0, with: jsonEncoder ?? client.jsonEncoder) }
        self.init(client: client, call: CallDescription(method: method, path: path, url: url, body: encoded,
                                                        jsonEncoder: jsonEncoder, bypassAuth: bypassAuth))
    }
}

// Declared in constrained extensions rather than on the type, so that editors rank `perform`
// and `download` above the request's properties and modifiers after `client.get("…").`.

extension RequestModifiable where Self == RequestBuilder {
    /// The client that started the request.
    public var client: ApiClient { self.storedClient }
    /// The request without its client: an endpoint with the same method, path or URL,
    /// `bypassAuth`, body, modifiers and validators, that gives the raw body. Read what the
    /// request describes there (`request.endpoint.method`, `.path`, `.url`, `.bypassAuth`), or
    /// keep it: `client.perform(request.endpoint)` sends the same call.
    public var endpoint: Endpoint<Data> { Endpoint(call: self.call) }
    /// The encoder for this request's JSON bodies: the one given, else the client's.
    public var jsonEncoder: JSONEncoder { self.call.jsonEncoder ?? self.storedClient.jsonEncoder }

    /// Returns a copy with `modifier` appended; it runs after the client's modifiers and authentication.
    public func modifier(_ modifier: RequestModifier) -> RequestBuilder {
        var copy = self
        copy.call.modifiers.append(modifier)
        return copy
    }

    /// Returns a copy that receives the client's authentication whatever its URL's origin.
    ///
    /// By default authentication is added only when the request's origin (scheme, host, port,
    /// after the client's modifiers ran) is the base URL's. Opt in only for a server you trust
    /// with the same credentials:
    /// ```swift
    /// try await client.request(url: cdnUrl).authenticatingAnyOrigin().perform()
    /// ```
    public func authenticatingAnyOrigin() -> RequestBuilder {
        var copy = self
        copy.call.authenticatesAnyOrigin = true
        return copy
    }
}

extension ResponseValidatable where Self == RequestBuilder {
    /// Returns a copy with `validator` appended; it runs after the client's validators.
    public func validator(_ validator: ResponseValidator) -> RequestBuilder {
        var copy = self
        copy.call.validators.append(replacingSameId: validator)
        return copy
    }
}
