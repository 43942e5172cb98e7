import Foundation
@testable import SwiftApiDsl
import Testing

/// The DER walk to a certificate's SubjectPublicKeyInfo over bytes that are not a certificate:
/// each malformed length or tag gives `nil`, never a trap, on 64-bit and 32-bit platforms alike.
@Suite struct CertificateReaderTests {
    /// A DER element: `tag`, its length in the shortest form, `content`.
    static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8] = count < 0x80 ? [UInt8(count)]
            : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + content
    }

    /// The smallest SubjectPublicKeyInfo the walk accepts: a SEQUENCE holding a NULL.
    static let spki: [UInt8] = [0x30, 0x02, 0x05, 0x00]

    /// A certificate with `tbsTag` around serial, signature, issuer, validity, subject and `spki`.
    static func certificate(tbsTag: UInt8 = 0x30, spki: [UInt8] = spki) -> [UInt8] {
        let fields = element(0x02, [1]) + element(0x30, []) + element(0x30, []) + element(0x30, []) + element(0x30, []) + spki
        return element(0x30, element(tbsTag, fields) + element(0x30, []) + element(0x03, [0]))
    }

    static func read(_ bytes: [UInt8]) -> [UInt8]? {
        TLSSettings.subjectPublicKeyInfo(ofCertificate: Data(bytes)).map { [UInt8]($0) }
    }

    @Test func theKeyOfAWellFormedCertificateIsItsSlice() {
        #expect(Self.read(Self.certificate()) == Self.spki)
        let longForm = Self.element(0x30, [UInt8](repeating: 5, count: 200))
        #expect(longForm.prefix(3) == [0x30, 0x81, 200])
        #expect(Self.read(Self.certificate(spki: longForm)) == longForm)
        let versioned = Self.element(0x30, Self.element(0x30, Self.element(0xA0, Self.element(0x02, [2])) + Self.element(0x02, [1])
            + Self.element(0x30, []) + Self.element(0x30, []) + Self.element(0x30, []) + Self.element(0x30, []) + Self.spki))
        #expect(Self.read(versioned) == Self.spki)
    }

    @Test func aLengthThatWouldBeNegativeInA32BitIntIsRefused() {
        #expect(Self.read([0x30, 0x84, 0x80, 0x00, 0x00, 0x00]) == nil)
        #expect(Self.read([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x30, 0x00]) == nil)
        #expect(Self.read([0x30, 0x06, 0x30, 0x84, 0x80, 0x00, 0x00, 0x00]) == nil)
        #expect(Self.read([0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF] + Self.certificate()) == nil)
    }

    @Test func aTruncatedLengthIsRefused() {
        #expect(Self.read([0x30, 0x82, 0x01]) == nil)
        #expect(Self.read([0x30, 0x84, 0x00]) == nil)
        #expect(Self.read([0x30]) == nil)
        #expect(Self.read([]) == nil)
        #expect(Self.read([0x30, 0x02, 0x30, 0x81]) == nil)
    }

    @Test func contentPastTheEndOrPastItsParentIsRefused() {
        #expect(Self.read([0x30, 0x05, 0x30, 0x00]) == nil)
        #expect(Self.read([0x30, 0x81, 0xFF] + [UInt8](repeating: 0x30, count: 200)) == nil)
        // The tbsCertificate states 16 bytes; the Certificate around it holds only its header.
        #expect(Self.read([0x30, 0x02, 0x30, 0x10] + [UInt8](repeating: 0, count: 16)) == nil)
        // The SPKI states one byte more than the tbsCertificate holds.
        var certificate = Self.certificate()
        certificate[certificate.count - 8] = 0x03
        #expect(Self.read(certificate) == nil)
        #expect(Self.read(Array(Self.certificate().dropLast())) == nil)
    }

    @Test func anIndefiniteLengthIsRefused() {
        #expect(Self.read([0x30, 0x80] + Self.certificate() + [0x00, 0x00]) == nil)
        #expect(Self.read([0x30, 0x80, 0x30, 0x80, 0x00, 0x00, 0x00, 0x00]) == nil)
    }

    @Test func aLengthNotInItsShortestFormIsRefused() {
        let certificate = Self.certificate()
        let content = Array(certificate.dropFirst(2))
        #expect(certificate[1] == UInt8(content.count) && content.count < 0x80)
        #expect(Self.read([0x30, 0x81, UInt8(content.count)] + content) == nil)
        #expect(Self.read([0x30, 0x82, 0x00, UInt8(content.count)] + content) == nil)
        #expect(Self.read([0x30, 0x85, 0x00, 0x00, 0x00, 0x00, UInt8(content.count)] + content) == nil)
    }

    @Test func anotherTagWhereTheWalkNeedsASequenceIsRefused() {
        #expect(Self.read([0x31] + Self.certificate().dropFirst()) == nil)
        #expect(Self.read(Self.certificate(tbsTag: 0x31)) == nil)
        #expect(Self.read(Self.certificate(spki: [0x31, 0x02, 0x05, 0x00])) == nil)
        #expect(Self.read(Self.certificate(spki: [])) == nil)
        var real = [UInt8](TLSSettingsTests.der)
        real[0] = 0x04
        #expect(Self.read(real) == nil)
    }

    @Test func bytesThatAreNoCertificateMatchNoPinAndAreNamedSo() {
        let settings = TLSSettings(pins: ["pin.example": ["sha256/" + TLSSettingsTests.pin]])
        #expect {
            try settings.checkPins(host: "pin.example", chain: [Data([0x30, 0x84, 0x80, 0x00, 0x00, 0x00]), Data([0x30, 0x80])])
        } throws: { error in
            (error as? ApiClientError)?.message == "the certificates of pin.example match none of its pins: sha256/\(TLSSettingsTests.pin); "
                + "the chain presented: (not a certificate), (not a certificate)"
        }
    }
}
