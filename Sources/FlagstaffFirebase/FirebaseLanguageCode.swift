/// The `language_code` the Apple SDK sends: the best match of the user's preferred languages among the
/// locale codes Firebase's console targets, or `"en"` when none matches.
///
/// The SDK asks `NSBundle.preferredLocalizations(from:forPreferences:)` to choose among its list; that API does
/// not exist on Linux, so this matches in the same spirit, for each preferred language in order: the exact code
/// (`-` and `_` are the same), then language and region (`zh-Hans-CN` → `zh_CN`), then language and script
/// (`zh-Hant` → `zh-Hant`), then the bare language (`fr-BE` → `fr_BE`, `fr-SN` → `fr`). The first preference
/// with a match wins.
package enum FirebaseLanguageCode {
    /// The codes the SDK chooses from (the values of its locale map), in a fixed order.
    package static let targetedCodes: [String] = [
        "sq_AL", "be_BY", "bg_BG", "ca", "ca_ES", "hr", "hr_HR", "cs", "cs_CZ", "da", "da_DK", "et_EE", "fi", "fi_FI",
        "he", "iw_IL", "hu", "hu_HU", "is_IS", "id", "in_ID", "id_ID", "ga_IE", "ko", "ko_KR", "ko-KR", "lv_LV",
        "lt_LT", "mk_MK", "ms_MY", "mt_MT", "pl", "pl_PL", "pl-PL", "ro", "ro_RO", "ru_RU", "ru", "ru_BY", "ru_KZ",
        "ru-RU", "sk", "sk_SK", "sl_SI", "sv", "sv_SE", "sv-SE", "tr", "tr-TR", "tr_TR", "uk", "uk_UA", "vi",
        "vi_VN", "ar", "ar_DZ", "ar_BH", "ar_EG", "ar_IQ", "ar_JO", "ar_KW", "ar_LB", "ar_LY", "ar_MA", "ar_OM",
        "ar_QA", "ar_SA", "ar_SD", "ar_SY", "ar_TN", "ar_AE", "ar_YE", "ar_GB", "ar-IQ", "ar_US", "zh_CN", "zh_SG",
        "zh-Hans", "zh_TW", "zh-Hant", "zh-TW", "nl", "nl_BE", "nl_NL", "nl-NL", "en", "en_AU", "en_CA", "en_IN",
        "en_IE", "en_MT", "en_NZ", "en_PH", "en_SG", "en_ZA", "en_GB", "en_US", "en_AE", "en-AE", "en_AS", "en-AU",
        "en_BD", "en-CA", "en_EG", "en_ES", "en-GB", "en_HK", "en_ID", "en-IN", "en_NG", "en-PH", "en_PK",
        "en-SG", "en-US", "fr", "fr_BE", "fr_CA", "fr_FR", "fr_LU", "fr_CH", "fr-CA", "fr-FR", "fr_MA", "de",
        "de_AT", "de_DE", "de_LU", "de_CH", "de-DE", "el", "el_CY", "el_GR", "hi_IN", "ta_IN", "te_IN", "mr_IN",
        "bn_IN", "gu_IN", "kn_IN", "pa_Guru_IN", "it", "it_IT", "it_CH", "it-IT", "ja", "ja_JP", "ja_JP_JP",
        "ja-JP", "nb", "no_NO", "no_NO_NY", "nb_NO", "pt_BR", "pt-BR", "pt", "pt_PT", "pt-PT", "sr_BA", "sr_ME",
        "sr_RS", "sr_Latn_BA", "sr_Latn_ME", "sr_Latn_RS", "es", "es_ES", "es-ES", "es-MX", "es_MX", "es_US",
        "es-US", "es_AR", "es_BO", "es_CL", "es_CO", "es_CR", "es_DO", "es_EC", "es_SV", "es_GT", "es_HN", "es_NI",
        "es_PA", "es_PY", "es_PE", "es_PR", "es_UY", "es_VE", "es-AR", "es-CL", "es-CO", "th", "th_TH",
        "th_TH_TH",
    ]

    /// The language code for a list of preferred languages (BCP 47 or POSIX style), best first.
    ///
    /// - Parameter preferredLanguages: For example `Locale.preferredLanguages` (`["en-GB", "fr"]`).
    /// - Returns: A code from ``targetedCodes``, or `"en"`.
    package static func code(forPreferredLanguages preferredLanguages: [String]) -> String {
        for preference in preferredLanguages {
            if let match = match(preference) { return match }
        }
        return "en"
    }

    /// The best targeted code for one preference, or `nil`.
    static func match(_ preference: String) -> String? {
        let parts = preference.replacingOccurrences(of: "-", with: "_").split(separator: "_").map(String.init)
        guard let language = parts.first?.lowercased(), !language.isEmpty else { return nil }
        let script = parts.dropFirst().first { $0.count == 4 }
        let region = parts.dropFirst().first { $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }
        var candidates = [parts.joined(separator: "_")]
        if let region { candidates.append("\(language)_\(region)") }
        if let script { candidates.append("\(language)_\(script)") }
        candidates.append(language)
        for candidate in candidates {
            if let found = targetedCodes.first(where: { normalized($0) == normalized(candidate) }) { return found }
        }
        return nil
    }

    private static func normalized(_ code: String) -> String {
        code.replacingOccurrences(of: "-", with: "_").lowercased()
    }
}
