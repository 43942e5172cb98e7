import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a client trusts and presents over TLS: private certificate authorities, public-key pins
/// per host, and a client certificate for mutual TLS.
///
/// ```swift
/// let client = ApiClient(baseUrl: url).tls(TLSSettings(
///     certificateAuthorities: [companyRootPEM],
///     pins: ["api.example.com": ["sha256/current-key-base64=", "sha256/next-key-base64="]],
///     clientIdentity: p12Data, clientIdentityPassword: p12Password))
/// ```
/// Every request carries them (``TransportRequest/tls``), each redirect hop too, checked against
/// its own host's pins; a host no pattern matches is checked against the trust anchors only.
/// What each engine enforces (<doc:TLS>): URLSession on Apple platforms, everything, in its
/// delegate, through a session the transport keeps for these settings alone, so a request never
/// reuses a connection that was opened without their checks; AsyncHTTPClient, all of it, pins
/// against the leaf certificate's key only, through a client of its own per host; URLSession
/// on Linux nothing, so it refuses any setting before a byte is sent (an ``ApiClientError`` with
/// `.tlsUnsupported`). A pin that fails is `.pinMismatch`.
///
/// Calls of `.tls` combine, the client's before the request's, so a CA and a client certificate
/// can be set apart:
/// ```swift
/// let mutual = client.tls(TLSSettings(certificateAuthorities: [companyRootPEM]))
///     .tls(TLSSettings(clientIdentity: p12Data, clientIdentityPassword: p12Password))
/// ```
/// Authorities add up (each once); a later call's pins replace an earlier call's for the same
/// host pattern (compared without case) and leave other patterns' alone; a later client identity
/// replaces the earlier one together with its password (no identity keeps the earlier one); and
/// `trustsSystemRoots` is `false` once any call says `false`, the stricter setting winning.
public struct TLSSettings: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Certificates of authorities to trust (DER, or PEM holding one or more), e.g. a private CA.
    public var certificateAuthorities: [Data]
    /// Whether the system's trusted roots count too (the default); `false` trusts only
    /// ``certificateAuthorities``.
    public var trustsSystemRoots: Bool
    /// Per host pattern (`api.example.com`, or `*.example.com` for one label more), the pins:
    /// base64 SHA-256 digests of a certificate's SubjectPublicKeyInfo, `sha256/` in front or not.
    /// A chain passes when any of its certificates matches any pin: give two to rotate keys.
    public var pins: [String: [String]]
    /// The certificate and key to present when the server asks for one, as a PKCS #12 archive
    /// (`.p12`, `.pfx`: the certificate, its key, and any intermediates).
    public var clientIdentity: Data?
    /// The password of ``clientIdentity``; never part of a description.
    public var clientIdentityPassword: String

    /// Settings from their parts; the defaults change nothing.
    public init(certificateAuthorities: [Data] = [], trustsSystemRoots: Bool = true, pins: [String: [String]] = [:],
                clientIdentity: Data? = nil, clientIdentityPassword: String = "") {
        self.certificateAuthorities = certificateAuthorities
        self.trustsSystemRoots = trustsSystemRoots
        self.pins = pins
        self.clientIdentity = clientIdentity
        self.clientIdentityPassword = clientIdentityPassword
    }

    /// What is set, without the identity's password.
    public var description: String {
        "TLSSettings(certificateAuthorities: \(certificateAuthorities.count), trustsSystemRoots: \(trustsSystemRoots), "
            + "pins: \(pins.keys.sorted()), clientIdentity: \(clientIdentity.map { "PKCS #12, \($0.count) bytes" } ?? "none"))"
    }

    /// As ``description``: `dump` shows no password either.
    public var customMirror: Mirror { Mirror(self, children: ["settings": description]) }
}

extension TLSSettings {
    /// The pins of `host`: an exact pattern first, then `*.` patterns that match one label more.
    func pins(for host: String) -> [String]? {
        let host = host.lowercased()
        var wildcard: [String]?
        for (pattern, pins) in self.pins {
            let pattern = pattern.lowercased()
            if pattern == host { return pins }
            if pattern.hasPrefix("*."), host.hasSuffix(pattern.dropFirst()),
               !host.dropLast(pattern.count - 1).contains("."), host.count > pattern.count - 1 {
                wildcard = pins
            }
        }
        return wildcard
    }

    /// Checks `chain` (certificates as DER, leaf first) against the pins of `host`, if it has
    /// any: it passes when one certificate's SubjectPublicKeyInfo digest is one of them, and
    /// throws an ``ApiClientError`` with `.pinMismatch` otherwise, whose message names the pins
    /// expected and the pin of each certificate presented. For a transport of your own: call it
    /// once the handshake has verified the chain, before the request is written. Any bytes are
    /// safe to pass: what is not a certificate matches no pin.
    public func checkPins(host: String, chain: [Data]) throws {
        guard let expected = pins(for: host) else { return }
        let wanted = Set(expected.map { $0.hasPrefix("sha256/") ? String($0.dropFirst(7)) : $0 })
        let found = chain.map { Self.subjectPublicKeyInfo(ofCertificate: $0).map { Data(SHA256.digest($0)).base64EncodedString() } }
        if found.contains(where: { $0.map(wanted.contains) ?? false }) { return }
        // A public key is no secret: naming what was presented spares a trip to openssl.
        let presented = found.isEmpty ? "no certificate"
            : found.map { $0.map { "sha256/\($0)" } ?? "(not a certificate)" }.joined(separator: ", ")
        throw ApiClientError(.pinMismatch, message: "the certificates of \(host) match none of its pins: "
                             + wanted.sorted().map { "sha256/\($0)" }.joined(separator: ", ") + "; the chain presented: " + presented)
    }

    /// The DER SubjectPublicKeyInfo of a DER X.509 certificate, or `nil` when it is not one:
    /// Certificate → tbsCertificate → [version], serial, signature, issuer, validity, subject, SPKI.
    /// Each element's tag is checked and each must fit in the one around it; any bytes are safe.
    static func subjectPublicKeyInfo(ofCertificate der: Data) -> Data? {
        let bytes = [UInt8](der)
        guard let certificate = element(in: bytes, at: 0, tag: 0x30, before: bytes.count),
              let tbs = element(in: bytes, at: certificate.content, tag: 0x30, before: certificate.end) else { return nil }
        var offset = tbs.content
        if let version = element(in: bytes, at: offset, tag: 0xA0, before: tbs.end) { offset = version.end }
        for tag: UInt8 in [0x02, 0x30, 0x30, 0x30, 0x30] { // serial, signature, issuer, validity, subject
            guard let skipped = element(in: bytes, at: offset, tag: tag, before: tbs.end) else { return nil }
            offset = skipped.end
        }
        guard let spki = element(in: bytes, at: offset, tag: 0x30, before: tbs.end) else { return nil }
        return Data(bytes[offset..<spki.end])
    }

    /// The DER element at `offset` with `tag` that ends by `limit`: where its content starts and
    /// where it ends. `nil` for another tag, an indefinite length (`0x80`, not DER), a length not
    /// in its shortest form or of more than 4 bytes, or content past `limit`. Lengths are compared
    /// with what remains before anything is added, so no value overflows, on 32-bit platforms too.
    private static func element(in bytes: [UInt8], at offset: Int, tag: UInt8, before limit: Int) -> (content: Int, end: Int)? {
        guard limit <= bytes.count, offset >= 0, offset < limit, limit - offset >= 2, bytes[offset] == tag else { return nil }
        let first = bytes[offset + 1]
        var content = offset + 2
        var length = UInt64(first)
        if first & 0x80 != 0 {
            let count = Int(first & 0x7F)
            guard (1...4).contains(count), limit - content >= count, bytes[content] != 0 else { return nil }
            length = bytes[content..<content + count].reduce(0) { $0 << 8 | UInt64($1) }
            guard length >= 0x80 else { return nil }
            content += count
        }
        guard length <= UInt64(limit - content) else { return nil }
        return (content, content + Int(length))
    }

    /// These settings with `later`'s combined into them, as a second `.tls` call does (see
    /// ``TLSSettings``).
    func merging(_ later: TLSSettings) -> TLSSettings {
        var merged = self
        for authority in later.certificateAuthorities where !merged.certificateAuthorities.contains(authority) {
            merged.certificateAuthorities.append(authority)
        }
        merged.trustsSystemRoots = trustsSystemRoots && later.trustsSystemRoots
        for (pattern, pins) in later.pins {
            merged.pins = merged.pins.filter { $0.key.lowercased() != pattern.lowercased() }
            merged.pins[pattern] = pins
        }
        if let identity = later.clientIdentity {
            merged.clientIdentity = identity
            merged.clientIdentityPassword = later.clientIdentityPassword
        }
        return merged
    }

    /// The certificates of ``certificateAuthorities`` as DER: each PEM block decoded, DER kept.
    var derCertificateAuthorities: [Data] {
        certificateAuthorities.flatMap { data -> [Data] in
            guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") else { return [data] }
            return text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { block in
                let base64 = block.components(separatedBy: "-----END CERTIFICATE-----")[0].filter { !$0.isWhitespace }
                return Data(base64Encoded: base64)
            }
        }
    }
}

extension RequestModifier {
    /// Adds `settings` to what the request trusts and presents over TLS. A later `tls` combines
    /// with an earlier one, a request's with its client's, as ``TLSSettings`` says: authorities add
    /// up, pins are replaced per host pattern, a client identity replaces the earlier one, and
    /// `trustsSystemRoots: false` stays. To replace everything set earlier, set
    /// ``TransportRequest/tls`` yourself: `RequestModifier(editing: { $0.tls = settings })`.
    public static func tls(_ settings: TLSSettings) -> RequestModifier {
        .init(editing: { $0.tls = $0.tls.map { $0.merging(settings) } ?? settings })
    }
}

extension RequestModifiable {
    /// Adds private CAs, pins or a client certificate to what the request trusts and presents over
    /// TLS; calls combine rather than replace (see ``TLSSettings``):
    /// ```swift
    /// client.tls(TLSSettings(certificateAuthorities: [root])).tls(TLSSettings(pins: ["api.example.com": pins]))
    /// ```
    public func tls(_ settings: TLSSettings) -> Self { modifier(.tls(settings)) }
}
