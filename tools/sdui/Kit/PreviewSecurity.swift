import DynamicUIDemoBackend
import DynamicUIModels
import DynamicUIWeb
import Foundation

/// What keeps other sites and other names away from the preview: it answers only under its own
/// host names, refuses what another site's page sends, runs actions only on a POST that carries
/// the session's form token, and tells browsers never to frame its pages.
enum PreviewSecurity {
    /// The name of the hidden field that carries a session's form token.
    static let formField = "_csrf"

    /// Headers on every answer: no framing (clickjacking), no type sniffing, no referrer.
    static let headers: [(name: String, value: String)] = [
        ("X-Frame-Options", "DENY"), ("Content-Security-Policy", "frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
    ]

    /// A new form token: 32 random bytes from the system's secure generator, as hex.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// Whether `sent` is `token`, compared in time that does not depend on where they differ.
    static func matches(_ sent: String?, _ token: String) -> Bool {
        guard let sent else { return false }
        let (a, b) = (Array(sent.utf8), Array(token.utf8))
        guard a.count == b.count, !b.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// Whether `host` (a `Host` header) names this server: 127.0.0.1, localhost or [::1] with
    /// `port`, or one of `extra` (a name, taken with `port`, or `name:port`). Anything else is
    /// a name that only resolves here by accident or by design (DNS rebinding).
    static func isAllowed(host: String, port: UInt16, extra: Set<String>) -> Bool {
        let host = host.lowercased()
        var names = ["127.0.0.1", "localhost", "[::1]"]
        var exact: Set<String> = []
        for name in extra.map({ $0.lowercased() }) {
            if name.hasSuffix("]") || !name.contains(":") { names.append(name) } else { exact.insert(name) }
        }
        if exact.contains(host) { return true }
        // Browsers leave out port 80.
        return names.contains { host == "\($0):\(port)" || (port == 80 && host == $0) }
    }

    /// Why a browser's request comes from somewhere it must not, or `nil` when it may go on: a
    /// request made by another site's page (another local port's included), by the browser's
    /// fetch metadata, or one whose `Origin` is not the preview's own. Under `no-referrer` a
    /// browser sends its own pages' forms with `Origin: null`; their `Sec-Fetch-Site` (which no
    /// page can set) says they are the preview's.
    static func crossSiteRefusal(_ request: LoopbackRequest, host: String) -> String? {
        let site = request.header("Sec-Fetch-Site")?.lowercased()
        if let site, site != "same-origin", site != "none" { return "sent by a page of another site (\(site))" }
        if let origin = request.header("Origin")?.lowercased(), origin != "http://\(host.lowercased())",
            !(origin == "null" && site == "same-origin")
        {
            return "sent from another origin (\(origin))"
        }
        return nil
    }

    /// The page for a link to the preview followed from another site: nothing ran; a link of
    /// the preview's own opens the page asked for.
    static func crossSitePage(path: String, query: String) -> String {
        let target = path.localPath.map { query.isEmpty ? $0 : "\($0)?\(query)" } ?? "/"
        return "<!DOCTYPE html>\n<html lang=\"es\"><head><meta charset=\"utf-8\" /><title>DynamicUI</title></head><body><main>"
            + "<p>Esta página se abrió desde otro sitio, así que no se hizo nada. / "
            + "This page was opened from another site, so nothing was done.</p>"
            + "<p><a href=\"\(HTMLRenderer.url(target))\">Abrir en la vista previa / Open in the preview</a></p>"
            + "</main></body></html>\n"
    }

    /// The page for an action's address opened with GET (a link opened in a new tab): the
    /// action runs only when its button is pressed here, with `token`; without a session, it
    /// links back to the preview.
    static func actionPage(action: String, token: String?) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"es\"><head><meta charset=\"utf-8\" /><title>DynamicUI</title></head><body><main>"
        if let token {
            out += "<form method=\"post\" action=\"\(HTMLRenderer.url(action))\">"
            out += "<input type=\"hidden\" name=\"\(formField)\" value=\"\(HTMLRenderer.attribute(token))\" />"
            out += "<button type=\"submit\">Continuar / Continue</button></form>"
        }
        return out + "<p><a href=\"/\">Volver a la vista previa / Back to the preview</a></p></main></body></html>\n"
    }

    /// The script that makes a click on a link to an action (`actions` is the path the
    /// actions are under) a POST with the form token, as a form's button would be: an action
    /// never runs on a GET.
    static func linkScript(actions: String, token: String) -> String {
        func literal(_ text: String) -> String {
            JSONWriter().string(from: JSONValue.string(text)).replacingOccurrences(of: "<", with: "\\u003c")
        }
        return "<script>//<![CDATA[\n(() => {\nconst ACTIONS = \(literal(actions)); const FIELD = \(literal(formField)); "
            + "const TOKEN = \(literal(token));\n" + linkScriptBody + "\n})();\n//]]></script>"
    }

    private static let linkScriptBody = """
        document.addEventListener('click', event => {
          if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
          const link = event.target.closest ? event.target.closest('a[href]') : null;
          if (!link) return;
          const url = new URL(link.href, location.href);
          if (url.origin !== location.origin || !url.pathname.startsWith(ACTIONS)) return;
          event.preventDefault();
          const form = document.createElement('form');
          form.method = 'post';
          form.action = url.href;
          form.hidden = true;
          const field = document.createElement('input');
          field.type = 'hidden';
          field.name = FIELD;
          field.value = TOKEN;
          form.appendChild(field);
          document.body.appendChild(form);
          form.submit();
        });
        """
}
