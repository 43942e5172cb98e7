/// Which header and query item names hold secrets, so that every text the library makes of a
/// request (error descriptions and mirrors, cURL lines, observer events, the mock's messages)
/// shows `<redacted>` instead of their values.
///
/// A name is secret when, ignoring case, it contains `auth`, `token`, `key`, `secret`, `cookie`,
/// `session` or `password` (`Authorization`, `X-Api-Key`, `Set-Cookie`, `X-Session-Id`,
/// `access_token`…), or when it was added with ``HeaderField/redact(_:)``.
///
/// The added names are kept for the whole process rather than per client: an error carries only
/// its `URLRequest`, not the client that sent it, and hiding a value too often is harmless
/// whereas showing it once is not.
enum SecretNames {
    /// The words that make a name secret wherever they appear in it.
    static let words = ["auth", "token", "key", "secret", "cookie", "session", "password"]

    /// Names added with ``HeaderField/redact(_:)``, lowercased; matched whole.
    static let added = Locked<Set<String>>([])

    /// Whether values under `name` must not be shown.
    static func contains(_ name: String) -> Bool {
        let name = name.lowercased()
        return words.contains { name.contains($0) } || added.withLock { $0.contains(name) }
    }
}

extension HeaderField {
    /// Whether the library shows this field's value as `<redacted>` in every text it makes of a
    /// request: true when the name contains `auth`, `token`, `key`, `secret`, `cookie`, `session`
    /// or `password` (ignoring case), or was added with ``redact(_:)``.
    /// Check it in your own logging too.
    public var isRedacted: Bool { SecretNames.contains(rawValue) }

    /// Adds `names` to the header (and query item) names whose values are never shown in text
    /// (error descriptions, dumps and mirrors, cURL lines, observer events), **for the whole
    /// process**: an error carries its request but not the client that sent it, and hiding a
    /// value in every client's text does no harm.
    ///
    /// ```swift
    /// HeaderField.redact(["X-Signature"])
    /// ```
    /// Names are matched whole, ignoring case; names containing `auth`, `token`, `key`, `secret`,
    /// `cookie`, `session` or `password` are redacted without being added.
    public static func redact(_ names: [HeaderField]) {
        SecretNames.added.withLock { $0.formUnion(names.map { $0.rawValue.lowercased() }) }
    }
}
