import DynamicUIModels
import Foundation

extension HTMLRenderer {
    /// The script of a page that changes in place: it listens to `events` (server-sent events;
    /// a `screen` event carries the screen's `<section>` drawn again, `reload` asks for a
    /// reload) and merges each new drawing into the page by element id. Elements that did not
    /// change stay (with what the user typed and the focus); new ones are inserted where they
    /// belong and play their transition; a changed element with a transition is replaced so it
    /// plays again; removed ones with a transition fade out first. With `visibility`, elements
    /// with visibility actions (`data-visibility`) report their visible share there (POST
    /// `page`, `id`, `fraction`) as it crosses their thresholds. The URLs are the host's own.
    public static func liveScript(events: String, visibility: String?, page: Int) -> String {
        let constants =
            "const EVENTS = \(scriptString(events)); const VISIBILITY = \(visibility.map(scriptString) ?? "null"); "
            + "const PAGE = \(page);"
        return "<script>//<![CDATA[\n(() => {\n" + constants + "\n" + liveScriptBody + "\n})();\n//]]></script>"
    }

    /// `text` as a JavaScript string literal that cannot end the script or its CDATA section.
    private static func scriptString(_ text: String) -> String {
        let literal: String = JSONWriter().string(from: JSONValue.string(text))
        return literal.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: "]]>", with: "]]\\u003e")
    }

    private static let liveScriptBody = """
        const key = el => el.id || (el.firstElementChild && el.firstElementChild.id ? '~' + el.firstElementChild.id : '');
        const keyed = parent => {
          for (const node of parent.childNodes) {
            if (node.nodeType === 3 && node.textContent.trim() !== '') return false;
          }
          for (const child of parent.children) { if (!key(child)) return false; }
          return true;
        };
        // What the user typed or ticked stays when the element around it is drawn again.
        const keepInputs = (from, to) => {
          from.querySelectorAll('input[name], textarea[name], select[name]').forEach(field => {
            const twin = to.querySelector('[name="' + CSS.escape(field.name) + '"]');
            if (!twin) return;
            if (field.type === 'checkbox' || field.type === 'radio') {
              if (field.checked !== field.defaultChecked) twin.checked = field.checked;
            } else if (field.value !== field.defaultValue) { twin.value = field.value; }
          });
        };
        const replace = (old, fresh) => {
          const focused = old.contains(document.activeElement) ? document.activeElement.id : null;
          keepInputs(old, fresh);
          old.replaceWith(fresh);
          if (focused) { const again = document.getElementById(focused); if (again) again.focus(); }
          return fresh;
        };
        const leave = el => {
          if (!el.classList.contains('transition')) { el.remove(); return; }
          el.classList.add('leaving');
          const done = () => el.remove();
          el.addEventListener('animationend', done, {once: true});
          setTimeout(done, 2100);
        };
        const sameAttributes = (a, b) => {
          if (a.attributes.length !== b.attributes.length) return false;
          for (const attribute of a.attributes) { if (b.getAttribute(attribute.name) !== attribute.value) return false; }
          return true;
        };
        const morph = (old, fresh) => {
          if (old.isEqualNode(fresh)) return old;
          // An element with a transition plays it again when it changes.
          if (old.tagName !== fresh.tagName || old.classList.contains('transition') || !keyed(old) || !keyed(fresh)
              || old.matches('input, textarea, select, button')) return replace(old, fresh);
          if (!sameAttributes(old, fresh)) {
            for (const attribute of Array.from(old.attributes)) {
              if (!fresh.hasAttribute(attribute.name)) old.removeAttribute(attribute.name);
            }
            for (const attribute of fresh.attributes) old.setAttribute(attribute.name, attribute.value);
          }
          const olds = new Map();
          for (const child of old.children) { if (!child.classList.contains('leaving')) olds.set(key(child), child); }
          let cursor = null;
          for (const child of Array.from(fresh.children)) {
            const match = olds.get(key(child));
            let placed;
            if (match) { olds.delete(key(child)); placed = morph(match, child); } else { placed = child; }
            let next = cursor ? cursor.nextElementSibling : old.firstElementChild;
            while (next && next.classList.contains('leaving')) next = next.nextElementSibling;
            if (placed !== next) old.insertBefore(placed, next);
            cursor = placed;
          }
          for (const gone of olds.values()) leave(gone);
          return old;
        };
        // Visibility: each element's share, reported as it crosses its thresholds.
        const observers = new Map();
        const watched = new WeakSet();
        const report = (el, ratio) => {
          if (!VISIBILITY) return;
          const fraction = ratio >= 0.995 ? 1 : Math.round(ratio * 1000) / 1000;
          const body = new URLSearchParams({page: String(PAGE), id: el.dataset.visibility, fraction: String(fraction)});
          fetch(VISIBILITY, {method: 'POST', body}).catch(() => {});
        };
        const watch = () => {
          if (!VISIBILITY || !('IntersectionObserver' in window)) return;
          document.querySelectorAll('[data-visibility]').forEach(el => {
            if (watched.has(el)) return;
            watched.add(el);
            const thresholds = (el.dataset.thresholds || '0').split(' ').map(Number).filter(n => n >= 0 && n <= 1);
            const name = thresholds.join(' ');
            if (!observers.has(name)) {
              observers.set(name, new IntersectionObserver(entries => {
                for (const entry of entries) report(entry.target, entry.isIntersecting ? entry.intersectionRatio : 0);
              }, {threshold: Array.from(new Set([0].concat(thresholds)))}));
            }
            observers.get(name).observe(el);
          });
        };
        const apply = html => {
          const template = document.createElement('template');
          template.innerHTML = html;
          const fresh = template.content.firstElementChild;
          const old = fresh && document.getElementById(fresh.id);
          if (!old) { location.reload(); return; }
          morph(old, fresh);
          watch();
          document.documentElement.dataset.liveUpdates = String(Number(document.documentElement.dataset.liveUpdates || 0) + 1);
        };
        const connect = () => {
          const source = new EventSource(EVENTS);
          source.addEventListener('screen', event => apply(event.data));
          source.addEventListener('reload', () => { source.close(); location.reload(); });
          source.addEventListener('open', () => { document.documentElement.dataset.live = 'open'; });
          window.addEventListener('pagehide', () => source.close());
        };
        if (document.readyState === 'loading') {
          document.addEventListener('DOMContentLoaded', () => { watch(); connect(); });
        } else { watch(); connect(); }
        """
}
