public import Foundation

/// The address a labeled value opens when its slot's style says what it is, as iOS makes a
/// phone number, an e-mail address or a web site tappable: `phone` opens `tel:`, `email` opens
/// `mailto:`, `link` opens an `http` or `https` address. A value that is not what its style
/// says (a web site "notaurl") has no address and stays text; no other scheme is ever made.
public enum ContactLink {
    /// The slot styles that make a labeled value a link.
    public static let styles: Set<String> = ["phone", "email", "link"]

    /// The address `text` opens under `style`, or `nil` when it stays text.
    public static func url(for text: String, style: String?) -> URL? {
        let value = text.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty, value.utf8.count <= 2048 else { return nil }
        switch style {
        case "phone": return phone(value)
        case "email": return email(value)
        case "link": return web(value)
        default: return nil
        }
    }

    /// `tel:` with the number's digits (and its leading `+`): written with digits, spaces and
    /// `-`, `.`, `/`, `(`, `)` only, 3 to 20 digits.
    static func phone(_ value: String) -> URL? {
        var digits = ""
        for (offset, character) in value.enumerated() {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if character == "+", offset == 0 {
                digits.append(character)
            } else if !" -./()".contains(character) {
                return nil
            }
        }
        guard (3...20).contains(digits.filter(\.isNumber).count) else { return nil }
        return URL(string: "tel:" + digits)
    }

    /// `mailto:` with the address: one `@` between a local part of letters, digits and
    /// `.!$'*+/=^_{|}~-` and a domain of at least two labels of letters, digits and `-`.
    static func email(_ value: String) -> URL? {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...64).contains(parts[0].count), (3...253).contains(parts[1].count) else { return nil }
        let localExtras = Set(".!$'*+/=^_{|}~-")
        guard parts[0].allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || localExtras.contains($0) }) else {
            return nil
        }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2,
            labels.allSatisfy({ label in
                (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            })
        else { return nil }
        return URL(string: "mailto:" + value)
    }

    /// The address itself, when it is an absolute `http` or `https` URL with a host and no
    /// space, control character or user name.
    static func web(_ value: String) -> URL? {
        guard value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !$0.properties.isWhitespace }),
            let parts = URLComponents(string: value), let scheme = parts.scheme?.lowercased(),
            scheme == "http" || scheme == "https", parts.host?.isEmpty == false, parts.user == nil
        else { return nil }
        return URL(string: value)
    }
}
