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
        liveScript(events: events, visibility: visibility, page: page, formToken: nil)
    }

    /// The script of a page that changes in place (as `liveScript(events:visibility:page:)`),
    /// whose visibility reports also carry `formToken` (the host's per-session form token, as
    /// its forms do: `HTMLRenderer.formToken`).
    public static func liveScript(
        events: String, visibility: String?, page: Int, formToken: (name: String, value: String)?
    ) -> String {
        let token = formToken.map { "[\(scriptString($0.name)), \(scriptString($0.value))]" } ?? "null"
        let constants =
            "const EVENTS = \(scriptString(events)); const VISIBILITY = \(visibility.map(scriptString) ?? "null"); "
            + "const PAGE = \(page); const FORM_TOKEN = \(token);"
        return "<script>//<![CDATA[\n(() => {\n" + constants + "\n" + liveScriptBody + "\n})();\n//]]></script>"
    }

    /// `text` as a JavaScript string literal that cannot end the script or its CDATA section.
    private static func scriptString(_ text: String) -> String {
        let literal: String = JSONWriter().string(from: JSONValue.string(text))
        return literal.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: "]]>", with: "]]\\u003e")
    }

    private static let liveScriptBody = """
        const key = el => el.id || (el.firstElementChild && el.firstElementChild.id ? '~' + el.firstElementChild.id : '');
        const hasText = el => Array.from(el.childNodes).some(node => node.nodeType === 3 && node.textContent.trim() !== '');
        // What the user typed or ticked stays when the element around it is drawn again: a
        // field is found by its id, a choice by its name and value, else by its name.
        const fields = el => (el.matches('input, textarea, select') ? [el] : [])
          .concat(Array.from(el.querySelectorAll('input[name], textarea[name], select[name]')));
        const keepInputs = (from, to) => {
          const twins = fields(to);
          for (const field of fields(from)) {
            if (!field.name) continue;
            const choice = field.type === 'checkbox' || field.type === 'radio';
            const twin = choice
              ? twins.find(t => t.name === field.name && t.value === field.value)
              : (field.id && twins.find(t => t.id === field.id)) || twins.find(t => t.name === field.name);
            if (!twin) continue;
            if (choice) {
              if (field.checked !== field.defaultChecked) twin.checked = field.checked;
            } else if (field.value !== field.defaultValue) { twin.value = field.value; }
          }
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
        // Merges `fresh` into `old` and returns the element now in the page: children with an id
        // (or whose first child has one) are matched by it, the others in order by tag; an
        // element holding text, or a field, is replaced when it changed.
        const morph = (old, fresh) => {
          if (old.isEqualNode(fresh)) return old;
          if (old.tagName !== fresh.tagName || hasText(old) || hasText(fresh)
              || old.matches('input, textarea, select, button')) return replace(old, fresh);
          if (!sameAttributes(old, fresh)) {
            for (const attribute of Array.from(old.attributes)) {
              if (!fresh.hasAttribute(attribute.name)) old.removeAttribute(attribute.name);
            }
            for (const attribute of fresh.attributes) old.setAttribute(attribute.name, attribute.value);
          }
          const byKey = new Map();
          const unkeyed = [];
          for (const child of old.children) {
            if (child.classList.contains('leaving')) continue;
            const k = key(child);
            if (k && !byKey.has(k)) { byKey.set(k, child); } else { unkeyed.push(child); }
          }
          let cursor = null;
          for (const child of Array.from(fresh.children)) {
            const k = key(child);
            let match = null;
            if (k && byKey.has(k)) {
              match = byKey.get(k);
              byKey.delete(k);
            } else if (!k) {
              const index = unkeyed.findIndex(candidate => candidate.tagName === child.tagName && !key(candidate));
              if (index >= 0) { match = unkeyed[index]; unkeyed.splice(index, 1); }
            }
            // A new element (a new key) is inserted as it is: its transition plays.
            const placed = match ? morph(match, child) : child;
            let next = cursor ? cursor.nextElementSibling : old.firstElementChild;
            while (next && next.classList.contains('leaving')) next = next.nextElementSibling;
            if (placed !== next) old.insertBefore(placed, next);
            cursor = placed;
          }
          for (const gone of byKey.values()) leave(gone);
          for (const gone of unkeyed) leave(gone);
          return old;
        };
        // Visibility: each element's share, reported as it crosses its thresholds.
        const observers = new Map();
        const watched = new WeakSet();
        const report = (id, ratio) => {
          if (!VISIBILITY) return;
          const fraction = ratio >= 0.995 ? 1 : Math.round(ratio * 1000) / 1000;
          const body = new URLSearchParams({page: String(PAGE), id, fraction: String(fraction)});
          if (FORM_TOKEN) body.append(FORM_TOKEN[0], FORM_TOKEN[1]);
          fetch(VISIBILITY, {method: 'POST', body}).catch(() => {});
        };
        const watchedIds = () => new Set(Array.from(document.querySelectorAll('[data-visibility]'))
          .filter(el => !el.closest('.leaving')).map(el => el.dataset.visibility));
        const watch = () => {
          if (!VISIBILITY || !('IntersectionObserver' in window)) return;
          document.querySelectorAll('[data-visibility]').forEach(el => {
            if (watched.has(el)) return;
            watched.add(el);
            const thresholds = (el.dataset.thresholds || '0').split(' ').map(Number).filter(n => n >= 0 && n <= 1);
            const name = thresholds.join(' ');
            if (!observers.has(name)) {
              observers.set(name, new IntersectionObserver(entries => {
                for (const entry of entries) {
                  if (entry.target.isConnected) report(entry.target.dataset.visibility, entry.isIntersecting ? entry.intersectionRatio : 0);
                }
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
          const before = watchedIds();
          morph(old, fresh);
          // An element a change removed is no longer visible (its disappear actions may fire).
          const after = watchedIds();
          for (const id of before) { if (!after.has(id)) report(id, 0); }
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
