/// The result builder behind ``RequestModifiable/multipartFormData(boundary:_:)``.
///
/// It accepts parts (``TextField``, ``DataField``, ``FileField``, any ``MultipartPart``),
/// arrays of them, `if`/`else`, `switch` and `for` loops.
@resultBuilder
public enum MultipartFormDataBuilder {
    /// One part, as a list of one.
    public static func buildExpression(_ part: MultipartPart) -> [MultipartPart] { [part] }
    /// A list of parts, as it is.
    public static func buildExpression(_ parts: [MultipartPart]) -> [MultipartPart] { parts }
    /// The parts of every line of a block, in order.
    public static func buildBlock(_ components: [MultipartPart]...) -> [MultipartPart] { components.flatMap { $0 } }
    /// The parts of an `if` without `else`: none when its condition is false.
    public static func buildOptional(_ component: [MultipartPart]?) -> [MultipartPart] { component ?? [] }
    /// The parts of an `if`'s first branch, or of a `switch` case.
    public static func buildEither(first component: [MultipartPart]) -> [MultipartPart] { component }
    /// The parts of an `else` branch, or of a later `switch` case.
    public static func buildEither(second component: [MultipartPart]) -> [MultipartPart] { component }
    /// The parts of every pass of a `for` loop, in order.
    public static func buildArray(_ components: [[MultipartPart]]) -> [MultipartPart] { components.flatMap { $0 } }
}
