extension HTMLRenderer {
    /// The light colours: iOS's, with the accent, red, green and orange darkened to the
    /// accessible variants so text reaches 4.5:1 on every surface and controls 3:1.
    private static let lightColors = """
        color-scheme:light;--bg:#f2f2f7;--surface:#fff;--text:#000;--secondary:#6c6c70;--separator:#c6c6c8;\
        --accent:#0066d6;--destructive:#d70015;--success:#248a3d;--warning:#c93400;--primary:#0066d6;--background:#f2f2f7;\
        --text_primary:#000;--text_secondary:#6c6c70;--accent_soft:#e5f0ff;--on_accent:#fff;--control_off:#8e8e93;\
        --success_bg:#d1f2db;--success_text:#0b5d23;--error_bg:#fde2e0;--error_text:#8a1c14;--pending_bg:#fff1d6;\
        --pending_text:#7a4b00
        """
    /// The dark colours: iOS's; text on the bright accent is black (white on #0a84ff is 3.65:1)
    /// and the banners are deep tints with light text instead of the light pastels.
    private static let darkColors = """
        color-scheme:dark;--bg:#000;--surface:#1c1c1e;--text:#fff;--secondary:#98989f;--separator:#38383a;\
        --accent:#0a84ff;--destructive:#ff453a;--success:#30d158;--warning:#ff9f0a;--primary:#0a84ff;--background:#000;\
        --text_primary:#fff;--text_secondary:#98989f;--accent_soft:#0a2a4d;--on_accent:#000;--control_off:#8e8e93;\
        --success_bg:#0d3a1b;--success_text:#a6f0b9;--error_bg:#4a1210;--error_text:#ffb4ad;--pending_bg:#4a3000;\
        --pending_text:#ffd68a
        """

    /// An iOS-like stylesheet: system font stack, grouped insets, light and dark.
    static let stylesheet = """
        :root{\(lightColors)}@media (prefers-color-scheme:dark){:root{\(darkColors)}}
        :root[data-theme=dark]{\(darkColors)}:root[data-theme=light]{\(lightColors)}
        *{box-sizing:border-box}body{margin:0;font:17px/1.35 -apple-system,BlinkMacSystemFont,"SF Pro Text","Helvetica Neue",\
        system-ui,sans-serif;background:var(--bg);color:var(--text)}main{max-width:980px;margin:0 auto;padding:0 16px 48px}
        .bar{display:flex;align-items:center;gap:8px;padding:12px 0}.bar h1{flex:1;margin:0}.bar h1.large{font-size:34px}\
        .bar.large{flex-direction:column;align-items:stretch;gap:2px;padding-top:4px}.bar-row{display:flex;align-items:center;\
        gap:8px;min-height:44px}.bar-space{flex:1}\
        .bar h1.inline{font-size:17px;text-align:center;flex:0 1 auto;min-width:0;white-space:nowrap;overflow:hidden;\
        text-overflow:ellipsis}.bar-side{flex:1 1 0;display:flex;align-items:center;gap:8px}\
        .bar-side.trailing{justify-content:flex-end}.back{color:var(--accent);text-decoration:none;display:inline-flex;\
        align-items:center;min-height:44px;min-width:44px}
        .tabs{position:fixed;left:0;right:0;bottom:0;z-index:10;background:var(--surface);border-top:1px solid var(--separator);\
        padding-bottom:env(safe-area-inset-bottom)}.tabs ul{display:flex;list-style:none;margin:0;padding:0;overflow:hidden}\
        .tabs li{flex:1 1 0;min-width:0}.tabs a{display:flex;flex-direction:column;align-items:center;justify-content:center;\
        gap:2px;min-height:49px;box-sizing:border-box;padding:4px 2px;text-align:center;font-size:10px;\
        color:var(--secondary);text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}\
        .tabs a.has-icon::before{content:"";width:24px;height:24px;background:currentColor;-webkit-mask:var(--icon) center/contain \
        no-repeat;mask:var(--icon) center/contain no-repeat}\
        .tabs a[aria-current=page]{color:var(--accent);font-weight:600}body:has(nav.tabs){padding-bottom:72px}\
        :root:has(nav.tabs){scroll-padding-bottom:72px}
        @media (min-width:900px){.tabs{top:0;right:auto;width:220px;border-top:0;border-right:1px solid var(--separator);\
        overflow-y:auto}.tabs ul{flex-direction:column;gap:2px;padding:12px 8px}.tabs li{flex:none}.tabs a{text-align:left;\
        font-size:15px;padding:8px 12px;border-radius:8px;flex-direction:row;justify-content:flex-start;gap:10px;min-height:44px}\
        .tabs a[aria-current=page]{background:var(--bg)}\
        body:has(nav.tabs){padding-bottom:0;padding-left:220px}}
        @media (min-width:700px){section.screen.form{max-width:600px;margin:0 auto!important}}
        .field.toggle{justify-content:space-between}.field.toggle label{order:-1;flex:1}\
        input[role=switch]{appearance:none;-webkit-appearance:none;flex:none;width:51px;height:31px;padding:0;\
        border:7px solid transparent;box-sizing:content-box;background-clip:padding-box;min-height:0;margin:0 -7px;\
        border-radius:22px;background-color:var(--control_off);position:relative;cursor:pointer;transition:background .2s}\
        input[role=switch]::before{content:"";position:absolute;top:2px;left:2px;width:27px;height:27px;border-radius:50%;\
        background:#fff;box-shadow:0 2px 4px rgba(0,0,0,.25);transition:left .2s}input[role=switch]:checked{background-color:var(--success)}\
        input[role=switch]:checked::before{left:22px}html.js .apply{display:none}
        .stack{display:flex;gap:8px}.stack.vertical{flex-direction:column}.stack.horizontal{flex-direction:row;align-items:center;\
        flex-wrap:wrap}.grid{display:grid;gap:12px}.flow{display:flex;flex-wrap:wrap;gap:8px}.scroll.horizontal{display:flex;\
        overflow-x:auto;gap:12px;scrollbar-width:none;scroll-snap-type:x proximity}.scroll.horizontal::-webkit-scrollbar{display:none}.zstack{position:relative}
        .group{margin:16px 0}.group h2{font-size:13px;font-weight:400;text-transform:uppercase;color:var(--secondary);\
        margin:0 16px 6px}.group-body{background:var(--surface);border-radius:10px;padding:4px 16px}
        .field{display:flex;flex-direction:column;gap:4px;padding:10px 0;border-bottom:1px solid var(--separator)}\
        .field:last-child{border-bottom:0}.field.toggle{flex-direction:row;align-items:center;gap:10px}
        input,select{font:inherit;padding:8px 10px;min-height:44px;box-sizing:border-box;border-radius:8px;\
        border:1px solid var(--separator);background:var(--bg);\
        color:var(--text)}input[aria-invalid=true],select[aria-invalid=true]{border-color:var(--destructive)}\
        .error{color:var(--destructive);font-size:13px;margin:0}
        button,.button{font:inherit;border:0;border-radius:10px;padding:10px 16px;min-height:44px;min-width:44px;\
        box-sizing:border-box;background:var(--bg);color:var(--accent);cursor:pointer}\
        .button.primary{background:var(--accent);color:var(--on_accent);font-weight:600}.button.destructive,.destructive{color:var(--destructive)}\
        .toolbar{background:none;padding:6px;white-space:nowrap}.toolbar.confirmation{font-weight:600}form.inline{display:inline}
        .list{list-style:none;margin:8px 0;padding:0;background:var(--surface);border-radius:10px}\
        .list:not(.cards)>li+li{border-top:1px solid var(--separator)}.list.no-separators>li+li{border-top:0}\
        .sized{min-width:0}img.resizable{width:100%;height:auto}\
        img.missing{content:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'%3E\
        %3Crect width='24' height='24' fill='%23d1d1d6'/%3E%3Cpath d='M5 17l4-5 3 3.5 2.5-3L19 17z' fill='%23fff'/%3E\
        %3Ccircle cx='9' cy='8' r='1.6' fill='%23fff'/%3E%3C/svg%3E");background:var(--separator);min-width:24px;min-height:24px}\
        .text{overflow-wrap:anywhere}.scroll.horizontal .list{display:flex;gap:12px;background:none;margin:0}\
        .scroll.horizontal .list>li{flex:none}.list li+li{border-top:1px solid \
        var(--separator)}.row{display:flex;align-items:center;gap:12px;padding:10px 16px;color:inherit;text-decoration:none}\
        .row-text{flex:1;min-width:0;display:flex;flex-direction:column;overflow-wrap:break-word}.row .badge{flex:none}\
        .row-subtitle{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden}input[type=search]{width:100%}.row-title{font-weight:600}.row-subtitle{color:var(--secondary);\
        font-size:15px}.chevron::after{content:"›";color:var(--separator);font-size:22px}
        .badge,.chip{font-size:12px;padding:2px 8px;border-radius:999px;background:var(--bg);color:var(--secondary)}
        .chip.success,.chip.warning,.chip.danger,.chip.info{color:var(--text)}\
        .chip.success{background:rgba(52,199,89,.15);box-shadow:inset 0 0 0 1px rgba(52,199,89,.6)}\
        .chip.warning{background:rgba(255,149,0,.15);box-shadow:inset 0 0 0 1px rgba(255,149,0,.6)}\
        .chip.danger{background:rgba(255,59,48,.15);box-shadow:inset 0 0 0 1px rgba(255,59,48,.6)}\
        .chip.info{background:rgba(0,122,255,.15);box-shadow:inset 0 0 0 1px rgba(0,122,255,.6)}
        .stack.vertical.align-leading,.stack.vertical.align-topLeading,.stack.vertical.align-bottomLeading{text-align:start}\
        .stack.vertical.align-trailing,.stack.vertical.align-topTrailing,.stack.vertical.align-bottomTrailing{text-align:end}\
        .stack.vertical.align-center,.stack.vertical.align-top,.stack.vertical.align-bottom,\
        .stack.vertical.align-firstTextBaseline{text-align:center}.stack.vertical[class*=align-] .form{text-align:start}\
        .stack.horizontal.align-top,.stack.horizontal.align-topLeading,.stack.horizontal.align-topTrailing{align-items:flex-start}\
        .stack.horizontal.align-bottom,.stack.horizontal.align-bottomLeading,.stack.horizontal.align-bottomTrailing{align-items:flex-end}\
        .stack.horizontal.align-firstTextBaseline{align-items:baseline}
        .zstack[class*=align-]{display:grid;place-items:center}.zstack[class*=align-]>*{grid-area:1/1}\
        .zstack.align-topLeading{place-items:start}.zstack.align-top{place-items:start center}\
        .zstack.align-topTrailing{place-items:start end}.zstack.align-leading{place-items:center start}\
        .zstack.align-trailing{place-items:center end}.zstack.align-bottomLeading{place-items:end start}\
        .zstack.align-bottom{place-items:end center}.zstack.align-bottomTrailing{place-items:end}
        .metric{background:var(--surface);border-radius:14px;padding:14px;display:flex;flex-direction:column}\
        .metric .value{font-size:28px;font-weight:700}.metric .label{color:var(--secondary);font-size:13px}
        .labeled{display:flex;justify-content:space-between;gap:12px;padding:8px 0}.labeled .label{color:var(--secondary)}\
        .labeled .value{text-align:end;min-width:0;overflow-wrap:break-word}\
        a.labeled{text-decoration:none;color:inherit;min-height:44px;align-items:center}a.labeled .value{color:var(--accent)}
        .empty{text-align:center;padding:48px 16px;color:var(--secondary)}.banner{padding:10px 14px;border-radius:10px;margin:8px 0}\
        .banner.success{background:var(--success_bg);color:var(--success_text)}\
        .banner.error{background:var(--error_bg);color:var(--error_text)}\
        .banner.pending{background:var(--pending_bg);color:var(--pending_text)}.avatar{display:inline-grid;place-items:center;width:44px;height:44px;\
        flex:none;position:relative;overflow:hidden;border-radius:50%;background:var(--accent);color:var(--on_accent);font-weight:600}\
        .avatar img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}img{max-width:100%}
        .text.largeTitle{font-size:34px;font-weight:700;margin:4px 0}.text.title{font-size:28px;margin:4px 0}\
        .text.caption,.text.footnote{font-size:13px;color:var(--secondary);margin:0}.text{margin:0}
        .unknown{border:1px dashed var(--destructive);color:var(--destructive);padding:8px;border-radius:8px}\
        .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}\
        dialog.confirm{border:0;border-radius:14px;padding:20px 0 0;width:270px;max-width:calc(100vw - 48px);z-index:21;\
        position:fixed;top:50%;transform:translateY(-50%);box-shadow:0 10px 40px rgba(0,0,0,.3);text-align:center;\
        background:var(--surface);color:var(--text)}dialog.confirm h2{font-size:17px;font-weight:600;margin:0 16px 4px}\
        dialog.confirm p{font-size:13px;margin:0 16px 16px}dialog.confirm form{display:block;margin:0}\
        dialog.confirm button{display:block;width:100%;border-radius:0;background:none;border-top:1px solid var(--separator);\
        font-size:17px}dialog.confirm button.destructive{color:var(--destructive)}\
        dialog.confirm form:last-child button{font-weight:600}
        .group-body>.row{padding:10px 0;min-height:44px;box-sizing:border-box}.group-body>.row+.row,\
        .group-body>.row+.field{border-top:1px solid var(--separator)}.group-body>.row .row-title{font-weight:400}\
        .group-body>.row .row-text{flex-direction:row;align-items:center;justify-content:space-between;gap:12px}\
        .group-body>.row .row-subtitle{text-align:end}
        fieldset.field{border:0;margin:0;padding:10px 0;min-width:0}fieldset.field legend{padding:0 0 4px;font-weight:600}\
        fieldset.field label{display:flex;flex-direction:row-reverse;justify-content:space-between;align-items:center;gap:12px;\
        min-height:44px;border-top:1px solid var(--separator);cursor:pointer}\
        input[type=radio]{appearance:none;-webkit-appearance:none;flex:none;width:24px;height:24px;min-height:0;margin:0;\
        padding:0;border-radius:50%;border:2px solid var(--separator);background:var(--surface)}\
        input[type=radio]:checked{border-color:var(--accent);background:var(--accent);box-shadow:inset 0 0 0 4px var(--surface)}.dim{position:fixed;inset:0;z-index:20;\
        background:rgba(0,0,0,.4)}.more{text-align:center}.more a{display:inline-flex;align-items:center;justify-content:center;min-height:44px;\
        padding:0 16px}
        .skeleton{display:flex;flex-direction:column;gap:8px;padding:8px 0}.skeleton .bar{display:block;height:14px;border-radius:4px;\
        background:var(--separator);opacity:.5}.skeleton .bar:nth-child(3n+2){width:60%}\
        .transition{animation-fill-mode:both}.t-fade{animation-name:dui-fade}.t-slide{animation-name:dui-slide}\
        .t-scale{animation-name:dui-scale}@keyframes dui-fade{from{opacity:0}}\
        @keyframes dui-slide{from{opacity:0;transform:translateY(12px)}}@keyframes dui-scale{from{opacity:0;transform:scale(.92)}}\
        .transition.leaving{animation-name:dui-leave;animation-direction:normal}@keyframes dui-leave{to{opacity:0}}\
        @media (prefers-reduced-motion:reduce){.t-slide,.t-scale{animation-name:dui-fade}}
        .preview-bar a,.preview-bar button{color:var(--accent)}.preview-bar button{background:none;padding:6px 10px}\
        .preview-bar button[aria-pressed=true]{background:var(--accent);color:var(--on_accent);font-weight:600}
        """
}
