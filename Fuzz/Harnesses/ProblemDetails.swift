/// Fuzzes the decoding of error bodies: RFC 9457 problem documents
/// (Sources/SwiftApiDsl/Errors/ProblemDetails.swift) through `decodingErrorBody`
/// (Validators/ErrorBodyValidator.swift).
///
/// Properties: for any body, the validator throws a `ProblemDetails` exactly when
/// `JSONDecoder` decodes one, and then the same one, and its description never traps; a
/// document written from members the input chooses (each present, absent, null, or of the
/// wrong type, with extension members and escapes) decodes to exactly those members, the
/// wrong-typed ones ignored and `type` defaulting to `about:blank`, and one with none of the
/// five members does not decode.
@testable import SwiftApiDsl
import Foundation

let problemDetailsHarness: Harness = { input in
    if input.bool() {
        let body = Data(input.rest())
        let decoded = try? JSONDecoder().decode(ProblemDetails.self, from: body)
        _ = decoded?.description
        let thrown = explain(body)
        require(thrown == decoded, "the validator threw \(String(describing: thrown)), the decoder gave \(String(describing: decoded))")
        return
    }

    var members: [String] = []
    var strings: [String: String] = [:]
    var status: Int?
    var anyMember = false
    for key in input.shuffled(["type", "title", "status", "detail", "instance", "extension"]) {
        let form = input.int(in: 0...3)
        if form == 0 { continue }
        if key != "extension" { anyMember = true }
        switch form {
        case 1:
            let text = input.string()
            members.append("\(json(key)): \(json(text))")
            if key == "status" { continue }
            strings[key] = text
        case 2:
            let number = Int(Int32(truncatingIfNeeded: Int(input.byte()) << 24 | Int(input.byte()) << 8 | Int(input.byte())))
            members.append("\(json(key)): \(number)")
            if key == "status" { status = number }
        default:
            members.append("\(json(key)): \(input.pick(["null", "true", "[1, \"a\"]", "{\"a\": {}}", "1.5"]))")
        }
    }
    let body = Data(("{" + members.joined(separator: input.pick([",", ", ", ",\n"])) + "}").utf8)
    let decoded = try? JSONDecoder().decode(ProblemDetails.self, from: body)
    guard anyMember else {
        require(decoded == nil, "\(String(decoding: body, as: UTF8.self)) decoded as \(decoded!)")
        return
    }
    let expected = ProblemDetails(type: strings["type"] ?? "about:blank", title: strings["title"], status: status,
                                  detail: strings["detail"], instance: strings["instance"])
    require(decoded == expected, "\(String(decoding: body, as: UTF8.self)) decoded as \(String(describing: decoded)), expected \(expected)")
    require(explain(body) == expected, "the validator did not throw \(expected)")
}

/// What `decodingErrorBody(ProblemDetails.self)` throws for a rejected response with `body`.
private func explain(_ body: Data) -> ProblemDetails? {
    let head = ResponseHead(statusCode: 400, headerFields: ["Content-Type": "application/problem+json"], httpVersion: "HTTP/1.1", url: nil)
    let response = Response(body: body, head: head)
    let validator = ResponseValidator.decodingErrorBody(ProblemDetails.self)
    let result = runBlocking { try await validator.explain?(response, ApiClientError.unacceptableStatusCode(400, acceptable: 200..<300), JSONDecoder()) }
    guard case .failure(let error) = result else { return nil }
    require(error is ProblemDetails, "the validator threw \(error)")
    return error as? ProblemDetails
}

/// `text` as a JSON string, written by hand: quotes, backslashes and control characters escaped.
private func json(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
