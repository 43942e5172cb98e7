import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What describes one call, whoever performs it: the one description behind both spellings.
/// An ``Endpoint`` is this description with a way to decode its value; the request a client
/// starts (`client.get("todos")`, a ``RequestBuilder``) is this description bound to its client.
/// Performing an endpoint binds its description to the client as it is: nothing is copied from
/// one form into another.
struct CallDescription: Sendable {
    var method: HttpMethod
    /// The path relative to the client's base URL, when the call has no absolute ``url``.
    var path: String?
    /// The absolute URL, when the call was started from one.
    var url: URL?
    /// Query items added before the call's own modifiers run.
    var query: [URLQueryItem] = []
    /// The `body:` given at the start, as JSON.
    var body: JSONBody?
    /// The encoder for the body: this one, else the client's.
    var jsonEncoder: JSONEncoder?
    /// Whether the client's authentication is skipped.
    var bypassAuth: Bool
    var modifiers: [RequestModifier] = []
    var validators: [ResponseValidator] = []
    /// Around every request on the wire, after the client's; see ``Middleware``.
    var middlewares: [Middleware] = []
    /// Whether authentication is added even when the URL's origin is not the base URL's.
    var authenticatesAnyOrigin = false
}

/// A JSON body, encoded with the encoder a call ends up with.
struct JSONBody: Sendable {
    let encode: @Sendable (JSONEncoder) throws -> Data

    /// A value that may cross to the task that performs the call, encoded then.
    init(_ value: any Encodable & Sendable) {
        encode = { encoder in try encoder.encode(value) }
    }

    /// A value encoded now with `encoder` (an encoding error fails the call when it is performed),
    /// for a value that need not be `Sendable`.
    init(encodingNow value: any Encodable, with encoder: JSONEncoder) {
        let encoded = Result { try encoder.encode(value) }
        encode = { _ in try encoded.get() }
    }
}
