import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The text forms of the library's values (`description`, `debugDescription`, `Mirror`, so `print`,
// `dump`, debuggers and string interpolation) show no secret: header values and query items named
// as secrets (`SecretNames`, one rule for every text), URL passwords, and nothing reached through
// a client's transport (a session's cookies) or closures. Their properties are what was really
// sent or received; only their text is redacted. Errors and observer events have their own text
// forms in their files, by the same rule.

extension HeaderFields: CustomReflectable {
    /// `Name: value` lines in order; secret values redacted (see ``HeaderField/isRedacted``).
    public var description: String {
        fields.map(\.description).joined(separator: "\n")
    }

    /// One redacted `Name: value` line per field.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: fields.map(\.description), displayStyle: .collection)
    }
}

extension HeaderFields.Field: CustomStringConvertible, CustomReflectable {
    /// `Name: value`, the value redacted when the name is a secret's.
    public var description: String {
        "\(name): \(Redaction.value(value, of: name))"
    }

    /// The name and the redacted value.
    public var customMirror: Mirror {
        Mirror(self, children: ["name": name, "value": Redaction.value(value, of: name)])
    }
}

extension Response: CustomReflectable {
    /// The status, the redacted header fields and the body; not the `HTTPURLResponse`, whose
    /// text shows every header as it came.
    public var customMirror: Mirror {
        Mirror(self, children: ["statusCode": statusCode, "headerFields": headerFields, "body": body])
    }
}

extension TransportRequest: CustomStringConvertible, CustomReflectable {
    /// `METHOD url`, the URL's password and secret query items redacted.
    public var description: String {
        "\(method.rawValue) \(url.map(Redaction.url) ?? "<no URL>")"
    }

    /// Method, redacted URL and header fields, the body's size or kind, and the timeout.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "method": method.rawValue,
            "url": url.map(Redaction.url) ?? "<no URL>",
            "headerFields": headerFields,
            "body": httpBody.map { "\($0.count) bytes" } ?? body.map(Self.kind) ?? "none",
            "timeoutInterval": timeoutInterval,
        ])
    }

    private static func kind(of body: RequestBody) -> String {
        switch body {
        case .file(let url): "file \(url.lastPathComponent)"
        case .multipart(let form): "multipart form of \(form.parts.count) parts"
        case .stream(let streamed): "stream of \(streamed.length.map { "\($0) bytes" } ?? "unknown length")"
        }
    }
}

extension ApiClient: CustomStringConvertible, CustomReflectable {
    /// `ApiClient(<base URL>, <transport type>)`, the base URL's password redacted.
    public var description: String {
        "ApiClient(\(Redaction.url(baseUrl)), \(type(of: transport)))"
    }

    /// The redacted base URL, the transport's type, and how many modifiers, validators and
    /// observers it has; nothing reached through the transport (a session's cookies) or a closure.
    public var customMirror: Mirror {
        let settings = self.settings
        return Mirror(self, children: [
            "baseUrl": Redaction.url(settings.baseUrl),
            "transport": String(describing: type(of: settings.transport)),
            "modifiers": settings.modifiers.count,
            "authentication": settings.authentication == nil ? "none" : "set",
            "validators": settings.validators.count,
            "observers": settings.observers.count,
            "middlewares": settings.middlewares.map(\.name),
            "errorMapping": settings.errorMapping == nil ? "none" : "set",
        ])
    }
}

extension RequestBuilder: CustomStringConvertible, CustomReflectable {
    /// `METHOD path` (or the redacted absolute URL) on its client.
    public var description: String {
        "\(call.method.rawValue) \(call.url.map(Redaction.url) ?? call.path ?? "") on \(client)"
    }

    /// Method, path or redacted URL, the client's text form, and how many modifiers and validators.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "method": call.method.rawValue,
            "target": call.url.map(Redaction.url) ?? call.path ?? "",
            "client": client.description,
            "modifiers": call.modifiers.count,
            "validators": call.validators.count,
            "bypassAuth": call.bypassAuth,
        ])
    }
}

extension Endpoint: CustomStringConvertible, CustomReflectable {
    /// `Endpoint<Value>(METHOD path)`, an absolute URL redacted.
    public var description: String {
        "Endpoint<\(Value.self)>(\(method.rawValue) \(url.map(Redaction.url) ?? path ?? ""))"
    }

    /// Method, path or redacted URL, query items with secret values redacted, and how many
    /// modifiers and validators; not the body.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "method": method.rawValue,
            "target": url.map(Redaction.url) ?? path ?? "",
            "query": query.map { "\($0.name)=\(SecretNames.contains($0.name) ? Redaction.placeholder : $0.value ?? "")" },
            "modifiers": call.modifiers.count,
            "validators": call.validators.count,
            "bypassAuth": bypassAuth,
        ])
    }
}

extension TransportResponse: CustomReflectable {
    /// The status, the redacted header fields and the HTTP version; not the engine's
    /// `HTTPURLResponse`, whose text shows every header as it came, nor the body.
    public var customMirror: Mirror {
        Mirror(self, children: ["statusCode": statusCode, "headerFields": headerFields, "httpVersion": httpVersion])
    }
}

extension Redirect: CustomReflectable {
    /// The hop, the redacted requests and the status; what a custom policy's `dump` shows.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "count": count, "statusCode": response.statusCode,
            "request": Redaction.line(for: request), "proposedRequest": Redaction.line(for: proposedRequest),
            "proposedHeaders": Redaction.headerLines(of: proposedRequest),
        ])
    }
}

extension URLSessionTransport: CustomReflectable {
    /// Nothing of the session: its configuration holds the cookie store and credentials.
    public var customMirror: Mirror {
        Mirror(self, children: [:])
    }
}
