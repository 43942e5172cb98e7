#if WIRE_SUITES
import Foundation

extension Data {
    /// Whether `other` holds the same bytes, for `#expect` on large bodies: when `==` between two
    /// collections fails, Swift Testing (6.3) works out their difference, which takes hours for a
    /// few megabytes and holds the whole run; a failed call is reported at once.
    func isSame(as other: Data) -> Bool { self == other }
}
#endif
