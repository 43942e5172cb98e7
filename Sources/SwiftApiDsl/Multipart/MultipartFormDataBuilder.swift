/// The result builder behind ``RequestModifiable/multipartFormData(boundary:_:)``.
///
/// It accepts parts (``TextField``, ``DataField``, ``FileField``, any ``MultipartPart``),
/// arrays of them, `if`/`else`, `switch` and `for` loops.
@resultBuilder
public enum MultipartFormDataBuilder {
    public static func buildExpression(_ part: MultipartPart) -> [MultipartPart] { [part] }
    public static func buildExpression(_ parts: [MultipartPart]) -> [MultipartPart] { parts }
    public static func buildBlock(_ components: [MultipartPart]...) -> [MultipartPart] { components.flatMap { $0 } }
    public static func buildOptional(_ component: [MultipartPart]?) -> [MultipartPart] { component ?? [] }
    public static func buildEither(first component: [MultipartPart]) -> [MultipartPart] { component }
    public static func buildEither(second component: [MultipartPart]) -> [MultipartPart] { component }
    public static func buildArray(_ components: [[MultipartPart]]) -> [MultipartPart] { components.flatMap { $0 } }
}
