/// Fuzzes the DER walk to a certificate's SubjectPublicKeyInfo and the pin check over it
/// (Sources/SwiftApiDsl/Transport/TLSSettings.swift): `checkPins(host:chain:)` is public and
/// takes whatever bytes a transport hands it. The whole input is the certificate, so the seeds
/// are DER files.
///
/// Properties: no input traps; a key found is a slice of the input that starts with a SEQUENCE
/// tag and is exactly as long as its DER header states (read here apart from the library); the
/// pin of a key found passes `checkPins`, and an unrelated pin fails it as `.pinMismatch` naming
/// that key; bytes in which no key is found fail every pin, named as no certificate.
@testable import SwiftApiDsl
import Foundation

let certificatePinsHarness: Harness = { input in
    let bytes = input.rest()
    let unrelated = "sha256/" + Data(repeating: 0, count: 32).base64EncodedString()
    let found = TLSSettings.subjectPublicKeyInfo(ofCertificate: Data(bytes)).map { [UInt8]($0) }
    let presented: String
    if let spki = found {
        require(spki.first == 0x30, "the key \(hex(spki)) is not a SEQUENCE")
        require(encodedSize(spki) == spki.count, "the key \(hex(spki)) states \(String(describing: encodedSize(spki))) bytes")
        require(isSlice(spki, of: bytes), "the key \(hex(spki)) is not a slice of the input")
        let pin = Data(SHA256.digest(spki)).base64EncodedString()
        do {
            try TLSSettings(pins: ["pin.example": [unrelated, "sha256/" + pin]]).checkPins(host: "pin.example", chain: [Data(bytes)])
        } catch {
            require(false, "the key's own pin failed: \(error)")
        }
        presented = "sha256/" + pin
    } else {
        presented = "(not a certificate)"
    }
    do {
        try TLSSettings(pins: ["pin.example": [unrelated]]).checkPins(host: "pin.example", chain: [Data(bytes)])
        require(false, "an unrelated pin passed")
    } catch let error as ApiClientError {
        let message = "the certificates of pin.example match none of its pins: \(unrelated); the chain presented: \(presented)"
        require(error.code == .pinMismatch && error.message == message, "an unrelated pin failed as \(error)")
    } catch {
        require(false, "an unrelated pin failed as \(error)")
    }
}

/// The size a DER element's header says the element has (header and content), read apart from
/// the library: `nil` when the header is cut short or its length is not 1 to 4 bytes.
private func encodedSize(_ element: [UInt8]) -> Int? {
    guard element.count >= 2 else { return nil }
    guard element[1] & 0x80 != 0 else { return 2 + Int(element[1]) }
    let count = Int(element[1] & 0x7F)
    guard (1...4).contains(count), element.count >= 2 + count else { return nil }
    return 2 + count + element[2..<2 + count].reduce(0) { $0 * 256 + Int($1) }
}

/// Whether `part` occurs in `whole` as contiguous bytes.
private func isSlice(_ part: [UInt8], of whole: [UInt8]) -> Bool {
    guard part.count <= whole.count else { return false }
    return (0...whole.count - part.count).contains { whole[$0..<$0 + part.count].elementsEqual(part) }
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.prefix(16).map { String(format: "%02x", $0) }.joined() + (bytes.count > 16 ? "… (\(bytes.count) bytes)" : "")
}
