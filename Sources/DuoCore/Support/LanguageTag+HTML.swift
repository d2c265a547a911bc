/// Language names as HTML's `lang` attribute writes them (BCP 47).
///
/// Thread: stateless.
extension LanguageTag {
    /// `zh_CN.UTF-8@x` → `zh-CN`; "" (the sources' English) → `en`.
    public static func html(_ language: String) -> String {
        guard let base = candidates(language).first(where: { !$0.contains(".") && !$0.contains("@") }), !base.isEmpty else { return "en" }
        return base.replacingOccurrences(of: "_", with: "-")
    }
}
