#!/usr/bin/env python3
"""Writes the string-heavy and number-heavy benchmark inputs, deterministically (fixed seeds, no
network):

    python3 Benchmarks/DynamicUIBenchInputs/generate-string-heavy.py   # rewrites Resources/*.json

Resources/itunes-lookup.json (~46 KB)
    An iTunes Search API lookup response (`/lookup?entity=podcastEpisode&id=…`) as the service
    lays it out: `{"resultCount":n, "results": [...]}`, one result a line, `", "` between
    members. The podcast's record, then its episodes with the real field names (wrapperType,
    kind, collectionId, trackId, artistName, collectionName, trackName, feedUrl, artworkUrl30 …
    600, releaseDate, genres, genreIds, episodeUrl, trackViewUrl, long descriptions). The
    podcast is multilingual: titles and descriptions in Spanish, Japanese, Arabic, Vietnamese
    (some with decomposed combining marks), French and English, with emoji. Descriptions carry
    `\\n`, `\\"` and `\\\\`; a third of them are relayed as a feed's encoder wrote them, every
    non-ASCII character as `\\u00e9` and astral ones as surrogate pairs (`\\uD83D\\uDE00`), `/` as
    `\\/`, so the reader meets each escape. Many URLs: artwork, feeds, episodes, show notes.

Resources/localized-screen.json (~46 KB)
    A composed EduGo screen (`ScreenDefinition`, settings pattern, pretty-printed like the
    catalog): a help centre whose `slot_data` carries its strings in twelve languages (keys
    `<locale>.<key>`: Spanish, English, Portuguese, French, German, Japanese, Chinese, Korean,
    Arabic, Russian, Hindi, Vietnamese), a language picker row per locale, a frequently-asked
    section per locale bound to those strings, and an action per row.

Resources/escaped-timeline.json (~64 KB)
    A social network's timeline search response as such services write it: every non-ASCII
    character escaped (`\\u3042`, emoji as surrogate pairs), every `/` as `\\/`, HTML in `source`
    with `\\"`; posts in Japanese, Chinese, Korean, Arabic, Spanish and English; 18-digit ids,
    nested `user` and `entities` objects, `null`s and booleans.

Resources/geojson.json (~64 KB)
    A GeoJSON FeatureCollection of polygons (administrative boundaries): coordinates as
    exporters write doubles, up to 17 significant digits (past the exact fast path of 15), a
    few properties per feature.

The files are committed; the benchmarks read them from the bundle. Rerunning this script
writes the same bytes.
"""
import json
import random
import unicodedata
from pathlib import Path

SEED = 0x5EED_0031
HERE = Path(__file__).resolve().parent / "Resources"

# MARK: JSON text, written by hand to control the escapes


def escape(text, ascii_only=False, slash=False):
    """A JSON string literal. `ascii_only`: non-ASCII as \\uXXXX (astral as an upper-case
    surrogate pair, the rest lower-case as most encoders write them); `slash`: `/` as `\\/`."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "/" and slash:
            out.append("\\/")
        elif code < 0x20:
            out.append(f"\\u{code:04x}")
        elif code > 0x7F and ascii_only:
            if code > 0xFFFF:
                code -= 0x10000
                out.append(f"\\u{0xD800 + (code >> 10):04X}\\u{0xDC00 + (code & 0x3FF):04X}")
            else:
                out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def value(v, **style):
    if isinstance(v, str):
        return escape(v, **style)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:.2f}"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(value(x, **style) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f'"{k}":{value(x, **style)}' for k, x in v.items()) + "}"
    raise TypeError(type(v))


def itunes_record(fields, escaped_keys=(), **style):
    """One result as the service writes it: `"key":value` pairs joined by `", "`."""
    return "{" + ", ".join(
        f'"{k}":{value(v, **style) if k in escaped_keys else value(v)}' for k, v in fields.items()) + "}"


# MARK: The podcast lookup

PODCAST_ID = 1587302214
ART = "https://is1-ssl.mzstatic.com/image/thumb/Podcasts126/v4/3c/9e/51/3c9e5157-0d1f-5b2a-e8c4-7f1d62a0b9e4/mza_5170093127446153829.jpg"
FEED = "https://feeds.transistor.fm/voces-del-mundo"
SHOW = "https://podcasts.apple.com/us/podcast/voces-del-mundo-idiomas-y-culturas/id1587302214"

# Each language: sentences for descriptions, episode titles, and the words of its links section.
LANGUAGES = {
    "es": {
        "titles": [
            "El subjuntivo sin miedo: «ojalá» y «aunque»", "Refranes que no se traducen", "Cómo suena el español de Cádiz",
            "Leer a García Márquez en voz alta", "Falsos amigos: «embarazada» no es «embarrassed»", "La ñ, la ll y la rr",
        ],
        "sentences": [
            "En este episodio, Begoña Martínez y Tomás Fernández conversan con la lingüista María José Núñez sobre cómo cambian las vocales según la región.",
            "¿Por qué decimos «ojalá» cuando deseamos algo? La palabra viene del árabe andalusí «law šá lláh», y la historia es más larga de lo que parece.",
            "Practicamos la pronunciación de la «ñ», la «ll» y la «rr» con trabalenguas: «Erre con erre, cigarro; erre con erre, barril».",
            "Al final, un ejercicio: escribe tres frases con «aunque» + subjuntivo y compártelas con nosotros; leeremos las mejores en el próximo programa.",
            "También respondemos a la pregunta de Iñaki desde Bilbao: \"¿se dice 'el agua fría' o 'la agua fría'?\" (spoiler: «el agua», pero «las aguas»).",
            "Gracias a nuestra comunidad en Patreon por hacer posible este programa — ¡sois increíbles! 🙌",
        ],
        "links": "Enlaces del episodio", "credits": "Producción: Voces del Mundo · Música: «Mañana de café» (CC BY 4.0)",
    },
    "ja": {
        "titles": [
            "敬語の基本：「です・ます」から尊敬語へ", "東京と大阪、イントネーションの違い", "漢字の成り立ち　象形文字から形声文字まで",
            "日本語のオノマトペ「ドキドキ」「ワクワク」", "俳句を声に出して読む　芭蕉と一茶",
        ],
        "sentences": [
            "今回のエピソードでは、日本語教師の田中由美子さんをお迎えして、敬語の使い分けについてお話しします。",
            "「いらっしゃいませ」と「ようこそ」はどう違うのでしょうか？　コンビニ、ホテル、会社の受付など、場面ごとに例文を紹介します。",
            "後半は、リスナーの皆さんから届いた質問「『おっしゃる』と『言われる』はどちらが丁寧ですか？」にお答えします。",
            "古池や　蛙飛び込む　水の音　――松尾芭蕉。五・七・五のリズムを一緒に感じてみましょう。",
            "番組の感想は、ハッシュタグ #こえのせかい でお寄せください。いつもありがとうございます😊",
        ],
        "links": "関連リンク", "credits": "制作：Voces del Mundo　音楽：「朝のコーヒー」（CC BY 4.0）",
    },
    "ar": {
        "titles": [
            "الحروف الشمسية والقمرية", "كيف نقرأ الشعر العربي بصوت عالٍ", "كلمات عربية في اللغة الإسبانية",
            "اللهجات: من المغرب إلى العراق",
        ],
        "sentences": [
            "في هذه الحلقة نتحدث مع الأستاذة ليلى حداد عن الكلمات العربية التي دخلت اللغة الإسبانية، مثل «الزيت» و«السكر» و«الأرز».",
            "نتعلم الفرق بين الحروف الشمسية والحروف القمرية، ونتدرّب على نطق «الشَّمس» و«القَمَر» مع التشكيل الكامل.",
            "هل تعلم أن كلمة «ojalá» الإسبانية أصلها عبارة «لو شاء الله»؟ نحكي القصة كاملة في الجزء الثاني.",
            "شكراً لكل من أرسل لنا رسائل صوتية — نقرأ بعضها في نهاية الحلقة 🌙",
        ],
        "links": "روابط الحلقة", "credits": "إنتاج: Voces del Mundo · موسيقى: «قهوة الصباح» (CC BY 4.0)",
    },
    "vi": {
        "titles": ["Sáu thanh điệu của tiếng Việt", "Chữ Quốc ngữ ra đời như thế nào?", "Nói chuyện ở chợ: mặc cả bằng tiếng Việt"],
        "sentences": [
            "Trong tập này, cô Nguyễn Thị Hương hướng dẫn cách phát âm sáu thanh điệu: ngang, huyền, sắc, hỏi, ngã, nặng.",
            "Chúng ta luyện tập với các từ “ma, mà, má, mả, mã, mạ” — cùng một âm tiết nhưng sáu nghĩa khác nhau!",
            "Phần cuối, chúng tôi trả lời câu hỏi của thính giả: “Tại sao chữ đ lại có gạch ngang?”",
            "Cảm ơn các bạn đã lắng nghe và ủng hộ chương trình 🇻🇳",
        ],
        "links": "Liên kết", "credits": "Sản xuất: Voces del Mundo · Nhạc: “Cà phê buổi sáng” (CC BY 4.0)",
        "decomposed": True,
    },
    "fr": {
        "titles": ["L’accent québécois expliqué", "Les faux amis entre le français et l’espagnol", "Ça, c’est l’élision !"],
        "sentences": [
            "Dans cet épisode, Hélène Lefèvre et François Côté reçoivent Geneviève Bélanger pour parler des « sacres » québécois et de leur histoire.",
            "Pourquoi dit-on « il était une fois » ? On remonte jusqu’aux contes de Perrault, et on s’arrête en chemin à la cédille du mot « garçon ».",
            "Exercice de la semaine : prononcez « Les chaussettes de l’archiduchesse sont-elles sèches, archi-sèches ? » trois fois, sans vous tromper.",
        ],
        "links": "Liens de l’épisode", "credits": "Production : Voces del Mundo · Musique : « Café du matin » (CC BY 4.0)",
    },
    "en": {
        "titles": ["Why English spelling is so weird", "Learning two languages at once: a listener's story"],
        "sentences": [
            "This week we talk to Dr. Siobhán O'Connor about why \"though\", \"through\", \"tough\" and \"thought\" all look alike but sound nothing alike.",
            "Windows users: the exercise files are in C:\\VocesDelMundo\\Ejercicios\\ — on a Mac, look in ~/Documents/VocesDelMundo/.",
            "Listener question from Zoë in Montréal: is it \"data is\" or \"data are\"? We argue about it for ten minutes so you don't have to.",
            "Support the show on Patreon and get the transcripts a week early. Thanks for listening! 🎧✨",
        ],
        "links": "Episode links", "credits": "Produced by Voces del Mundo · Music: \"Morning Coffee\" (CC BY 4.0)",
    },
}
# Which language each episode is in: Spanish most often, as in a Spanish-hosted show.
EPISODE_LANGUAGES = ["es", "ja", "es", "ar", "fr", "es", "vi", "en", "ja", "es", "ar", "es", "ja", "fr", "vi", "es", "en", "ar"]
NAMES = ["Begoña Martínez", "Tomás Fernández", "田中由美子", "ليلى حداد", "Nguyễn Thị Hương", "Hélène Lefèvre", "Siobhán O'Connor"]


def slugify(text, rng):
    ascii_only = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    words = "".join(c if c.isalnum() else "-" for c in ascii_only).split("-")
    slug = "-".join(w for w in words if w)
    return slug or f"episodio-{rng.randrange(10_000, 99_999)}"


def episode(number, language, rng):
    lang = LANGUAGES[language]
    title = f"{number}. {rng.choice(lang['titles'])}"
    sentences = lang["sentences"][:]
    rng.shuffle(sentences)
    paragraphs = [" ".join(sentences[:2]), " ".join(sentences[2:])]
    guest = rng.choice(NAMES)
    episode_id = 1000600000000 + number * 7919 + rng.randrange(1000)
    audio = f"https://media.transistor.fm/{rng.randrange(16**8):08x}/{rng.randrange(16**8):08x}.mp3"
    notes = f"https://vocesdelmundo.fm/episodios/{number}?utm_source=apple&utm_medium=podcast&lang={language}"
    links = "\n".join([
        f"• {notes}",
        f"• https://www.youtube.com/watch?v={''.join(rng.choice('abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789_-') for _ in range(11))}",
        f"• https://es.wikipedia.org/wiki/{rng.choice(['Subjuntivo', 'Idioma_japonés', 'Alfabeto_árabe', 'Chữ_Quốc_ngữ', 'Français_québécois'])}",
        f"• https://www.patreon.com/vocesdelmundo?ref=ep{number}",
    ])
    description = "\n\n".join([
        paragraphs[0], paragraphs[1], f"{guest} — {lang['credits']}", f"{lang['links']}:\n{links}",
        "Transcripción / Transcript: " + notes.replace("?", "/transcripcion?"),
    ])
    if lang.get("decomposed"):
        title, description = unicodedata.normalize("NFD", title), unicodedata.normalize("NFD", description)
    short = description.split("\n")[0][:220]
    day = 1 + (number * 3) % 28
    return {
        "wrapperType": "podcastEpisode", "kind": "podcast-episode", "trackId": episode_id, "trackName": title,
        "collectionId": PODCAST_ID, "collectionName": "Voces del Mundo: idiomas y culturas 🌍", "artistIds": [],
        "closedCaptioning": "none", "collectionViewUrl": f"{SHOW}?uo=4", "feedUrl": FEED,
        "trackViewUrl": f"https://podcasts.apple.com/us/podcast/{slugify(title, rng)}/id{PODCAST_ID}?i={episode_id}&uo=4",
        "episodeUrl": audio, "previewUrl": audio,
        "artworkUrl60": f"{ART}/60x60bb.jpg", "artworkUrl160": f"{ART}/160x160bb.jpg", "artworkUrl600": f"{ART}/600x600bb.jpg",
        "episodeGuid": "-".join(f"{rng.randrange(16**n):0{n}x}" for n in (8, 4, 4, 4, 12)),
        "releaseDate": f"2026-{1 + number % 12:02d}-{day:02d}T{6 + number % 12:02d}:00:00Z",
        "shortDescription": short, "description": description, "country": "USA", "episodeFileExtension": "mp3",
        "episodeContentType": "audio", "genres": [{"name": "Language Learning", "id": "1498"}],
        "trackTimeMillis": 1_200_000 + rng.randrange(2_400_000), "contentAdvisoryRating": "Clean",
    }


def itunes_lookup(target_bytes=47_000):
    rng = random.Random(SEED)
    podcast = {
        "wrapperType": "track", "kind": "podcast", "collectionId": PODCAST_ID, "trackId": PODCAST_ID,
        "artistName": "Begoña Martínez, Tomás Fernández & 田中由美子", "collectionName": "Voces del Mundo: idiomas y culturas 🌍",
        "trackName": "Voces del Mundo: idiomas y culturas 🌍", "collectionCensoredName": "Voces del Mundo: idiomas y culturas 🌍",
        "trackCensoredName": "Voces del Mundo: idiomas y culturas 🌍", "collectionViewUrl": f"{SHOW}?uo=4", "feedUrl": FEED,
        "trackViewUrl": f"{SHOW}?uo=4", "artworkUrl30": f"{ART}/30x30bb.jpg", "artworkUrl60": f"{ART}/60x60bb.jpg",
        "artworkUrl100": f"{ART}/100x100bb.jpg", "collectionPrice": 0.0, "trackPrice": 0.0, "collectionHdPrice": 0,
        "releaseDate": "2026-11-20T06:00:00Z", "collectionExplicitness": "notExplicit", "trackExplicitness": "cleaned",
        "trackCount": 214, "country": "USA", "currency": "USD", "primaryGenreName": "Language Learning",
        "contentAdvisoryRating": "Clean", "artworkUrl600": f"{ART}/600x600bb.jpg",
        "genreIds": ["1498", "26", "1304", "1324"], "genres": ["Language Learning", "Podcasts", "Education", "Society & Culture"],
    }
    lines = [itunes_record(podcast)]
    number = 214

    def document(lines):
        return '{\n "resultCount":%d,\n "results": [\n%s]\n}\n' % (len(lines), ",\n".join(lines))

    while True:
        language = EPISODE_LANGUAGES[(214 - number) % len(EPISODE_LANGUAGES)]
        record = episode(number, language, rng)
        # Every third episode's texts as a feed's encoder relayed them: \u escapes and \/.
        relayed = (214 - number) % 3 == 2
        style = {"ascii_only": True, "slash": True} if relayed else {}
        lines.append(itunes_record(record, ("trackName", "shortDescription", "description"), **style))
        number -= 1
        if len(document(lines).encode()) > target_bytes:  # the last episode that fits
            return document(lines[:-1])


# MARK: The localized screen

LOCALES = {
    "es": {
        "language_name": "Español", "title": "Centro de ayuda", "greeting": "Hola, {user.firstName}. ¿En qué podemos ayudarte?",
        "search": "Buscar en la ayuda…", "faq_title": "Preguntas frecuentes",
        "faq": [
            ("¿Cómo cambio mi contraseña?", "Abre Ajustes › Cuenta › Contraseña, escribe la actual y después la nueva dos veces. Te enviaremos un correo de confirmación."),
            ("¿Por qué no veo mis materiales?", "Comprueba que tu unidad académica esté seleccionada y desliza hacia abajo para actualizar. Si el problema continúa, cierra sesión y vuelve a entrar."),
            ("¿Puedo usar la aplicación sin conexión?", "Sí: las pantallas que ya abriste se guardan en el dispositivo. Los cambios se envían en cuanto vuelve la conexión."),
            ("¿Quién ve mis calificaciones?", "Solo tus docentes, tu tutor o tutora y la dirección de tu colegio. Nadie más puede verlas."),
        ],
        "contact": "Escríbenos: respondemos en menos de 24 horas, de lunes a viernes.", "send": "Enviar mensaje",
        "confirm": "¿Quieres cambiar el idioma a «{item.name}»? La aplicación se reiniciará.",
    },
    "en": {
        "language_name": "English", "title": "Help Center", "greeting": "Hi, {user.firstName}. How can we help?",
        "search": "Search help…", "faq_title": "Frequently asked questions",
        "faq": [
            ("How do I change my password?", "Open Settings › Account › Password, type your current password, then the new one twice. We'll email you a confirmation."),
            ("Why can't I see my materials?", "Check that your academic unit is selected and pull down to refresh. If it persists, sign out and sign in again."),
            ("Can I use the app offline?", "Yes: screens you've opened are kept on the device. Changes are sent as soon as you're back online."),
            ("Who can see my grades?", "Only your teachers, your guardian and your school's administration. Nobody else can."),
        ],
        "contact": "Write to us: we answer within 24 hours, Monday to Friday.", "send": "Send message",
        "confirm": "Switch the language to “{item.name}”? The app will restart.",
    },
    "pt-BR": {
        "language_name": "Português (Brasil)", "title": "Central de ajuda", "greeting": "Olá, {user.firstName}. Como podemos ajudar?",
        "search": "Pesquisar na ajuda…", "faq_title": "Perguntas frequentes",
        "faq": [
            ("Como altero minha senha?", "Abra Ajustes › Conta › Senha, digite a senha atual e depois a nova duas vezes. Você receberá um e-mail de confirmação."),
            ("Por que não vejo meus materiais?", "Verifique se a sua unidade acadêmica está selecionada e deslize para baixo para atualizar. Se continuar, saia e entre de novo."),
            ("Posso usar o aplicativo sem conexão?", "Sim: as telas que você já abriu ficam salvas no aparelho. As alterações são enviadas assim que a conexão voltar."),
            ("Quem vê minhas notas?", "Somente seus professores, seu responsável e a direção da escola. Ninguém mais."),
        ],
        "contact": "Fale conosco: respondemos em até 24 horas, de segunda a sexta.", "send": "Enviar mensagem",
        "confirm": "Mudar o idioma para “{item.name}”? O aplicativo será reiniciado.",
    },
    "fr": {
        "language_name": "Français", "title": "Centre d’aide", "greeting": "Bonjour, {user.firstName}. Comment pouvons-nous vous aider ?",
        "search": "Rechercher dans l’aide…", "faq_title": "Questions fréquentes",
        "faq": [
            ("Comment changer mon mot de passe ?", "Ouvrez Réglages › Compte › Mot de passe, saisissez l’actuel puis le nouveau deux fois. Vous recevrez un e-mail de confirmation."),
            ("Pourquoi mes supports n’apparaissent-ils pas ?", "Vérifiez que votre unité pédagogique est sélectionnée et tirez vers le bas pour actualiser. Sinon, déconnectez-vous puis reconnectez-vous."),
            ("Puis-je utiliser l’application hors ligne ?", "Oui : les écrans déjà ouverts restent sur l’appareil. Les modifications partent dès le retour de la connexion."),
            ("Qui voit mes notes ?", "Uniquement vos enseignants, votre responsable légal et la direction de l’établissement."),
        ],
        "contact": "Écrivez-nous : réponse sous 24 heures, du lundi au vendredi.", "send": "Envoyer le message",
        "confirm": "Passer la langue en « {item.name} » ? L’application va redémarrer.",
    },
    "de": {
        "language_name": "Deutsch", "title": "Hilfe-Center", "greeting": "Hallo, {user.firstName}. Wie können wir helfen?",
        "search": "Hilfe durchsuchen …", "faq_title": "Häufig gestellte Fragen",
        "faq": [
            ("Wie ändere ich mein Passwort?", "Öffne Einstellungen › Konto › Passwort, gib das aktuelle und danach zweimal das neue ein. Du erhältst eine Bestätigungs-E-Mail."),
            ("Warum sehe ich meine Materialien nicht?", "Prüfe, ob deine Lerneinheit ausgewählt ist, und ziehe nach unten zum Aktualisieren. Hilft das nicht, melde dich ab und wieder an."),
            ("Kann ich die App offline nutzen?", "Ja: Bereits geöffnete Bildschirme bleiben auf dem Gerät. Änderungen werden gesendet, sobald die Verbindung zurück ist."),
            ("Wer sieht meine Noten?", "Nur deine Lehrkräfte, deine Erziehungsberechtigten und die Schulleitung – sonst niemand."),
        ],
        "contact": "Schreib uns: Wir antworten innerhalb von 24 Stunden, montags bis freitags.", "send": "Nachricht senden",
        "confirm": "Sprache auf „{item.name}“ umstellen? Die App wird neu gestartet.",
    },
    "ja": {
        "language_name": "日本語", "title": "ヘルプセンター", "greeting": "こんにちは、{user.firstName}さん。お困りのことはありますか？",
        "search": "ヘルプを検索…", "faq_title": "よくある質問",
        "faq": [
            ("パスワードを変更するには？", "「設定」›「アカウント」›「パスワード」を開き、現在のパスワードと新しいパスワード（2回）を入力してください。確認メールをお送りします。"),
            ("教材が表示されないのはなぜですか？", "学習ユニットが選択されているか確認し、画面を下に引いて更新してください。解決しない場合は、一度ログアウトしてから再度ログインしてください。"),
            ("オフラインでも使えますか？", "はい。一度開いた画面は端末に保存されます。変更内容は接続が回復すると自動的に送信されます。"),
            ("成績は誰が見られますか？", "担当の先生、保護者、学校の管理者のみです。それ以外の人は見られません。"),
        ],
        "contact": "お問い合わせ：平日24時間以内にご返信します。", "send": "メッセージを送信",
        "confirm": "言語を「{item.name}」に変更しますか？アプリが再起動します。",
    },
    "zh-Hans": {
        "language_name": "简体中文", "title": "帮助中心", "greeting": "你好，{user.firstName}。有什么可以帮你？",
        "search": "搜索帮助…", "faq_title": "常见问题",
        "faq": [
            ("如何修改密码？", "打开“设置”›“账户”›“密码”，输入当前密码，再输入两次新密码。我们会发送确认邮件。"),
            ("为什么看不到我的教材？", "请确认已选择你的教学单元，然后下拉刷新。如果问题仍然存在，请退出登录后重新登录。"),
            ("可以离线使用吗？", "可以：已打开的页面会保存在设备上。恢复网络后，修改会自动发送。"),
            ("谁能看到我的成绩？", "只有你的老师、监护人和学校管理人员可以看到。"),
        ],
        "contact": "联系我们：工作日 24 小时内回复。", "send": "发送消息",
        "confirm": "将语言切换为“{item.name}”？应用将重新启动。",
    },
    "ko": {
        "language_name": "한국어", "title": "고객센터", "greeting": "안녕하세요, {user.firstName}님. 무엇을 도와드릴까요?",
        "search": "도움말 검색…", "faq_title": "자주 묻는 질문",
        "faq": [
            ("비밀번호는 어떻게 변경하나요?", "설정 › 계정 › 비밀번호를 열고 현재 비밀번호와 새 비밀번호를 두 번 입력하세요. 확인 이메일을 보내 드립니다."),
            ("자료가 보이지 않는 이유는 무엇인가요?", "학습 단위가 선택되어 있는지 확인하고 화면을 아래로 당겨 새로 고치세요. 계속되면 로그아웃한 뒤 다시 로그인하세요."),
            ("오프라인에서도 사용할 수 있나요?", "네. 이미 연 화면은 기기에 저장됩니다. 변경 사항은 연결이 복구되면 전송됩니다."),
            ("내 성적은 누가 볼 수 있나요?", "담당 선생님, 보호자, 학교 관리자만 볼 수 있습니다."),
        ],
        "contact": "문의하기: 평일 24시간 이내에 답변드립니다.", "send": "메시지 보내기",
        "confirm": "언어를 ‘{item.name}’(으)로 바꿀까요? 앱이 다시 시작됩니다.",
    },
    "ar": {
        "language_name": "العربية", "title": "مركز المساعدة", "greeting": "مرحباً {user.firstName}، كيف يمكننا مساعدتك؟",
        "search": "ابحث في المساعدة…", "faq_title": "الأسئلة الشائعة",
        "faq": [
            ("كيف أغيّر كلمة المرور؟", "افتح الإعدادات ‹ الحساب ‹ كلمة المرور، واكتب كلمة المرور الحالية ثم الجديدة مرتين. سنرسل إليك رسالة تأكيد."),
            ("لماذا لا أرى موادي الدراسية؟", "تأكّد من اختيار وحدتك الدراسية، ثم اسحب الشاشة إلى الأسفل للتحديث. إذا استمرت المشكلة، سجّل الخروج ثم ادخل من جديد."),
            ("هل يمكنني استخدام التطبيق دون اتصال؟", "نعم: تُحفظ الشاشات التي فتحتها على الجهاز، وتُرسل التغييرات فور عودة الاتصال."),
            ("من يستطيع رؤية درجاتي؟", "معلّموك ووليّ أمرك وإدارة المدرسة فقط."),
        ],
        "contact": "راسلنا: نرد خلال ٢٤ ساعة، من الاثنين إلى الجمعة.", "send": "إرسال الرسالة",
        "confirm": "هل تريد تغيير اللغة إلى «{item.name}»؟ سيُعاد تشغيل التطبيق.",
    },
    "ru": {
        "language_name": "Русский", "title": "Центр поддержки", "greeting": "Здравствуйте, {user.firstName}! Чем можем помочь?",
        "search": "Поиск по справке…", "faq_title": "Частые вопросы",
        "faq": [
            ("Как изменить пароль?", "Откройте «Настройки» › «Учётная запись» › «Пароль», введите текущий пароль, затем дважды новый. Мы пришлём письмо с подтверждением."),
            ("Почему я не вижу свои материалы?", "Проверьте, что выбрано ваше учебное подразделение, и потяните экран вниз, чтобы обновить. Если не помогло, выйдите и войдите снова."),
            ("Можно ли пользоваться приложением офлайн?", "Да: открытые экраны сохраняются на устройстве. Изменения отправятся, как только появится связь."),
            ("Кто видит мои оценки?", "Только ваши учителя, родители или опекуны и администрация школы."),
        ],
        "contact": "Напишите нам: отвечаем в течение 24 часов, с понедельника по пятницу.", "send": "Отправить сообщение",
        "confirm": "Сменить язык на «{item.name}»? Приложение перезапустится.",
    },
    "hi": {
        "language_name": "हिन्दी", "title": "सहायता केंद्र", "greeting": "नमस्ते, {user.firstName}। हम आपकी क्या मदद कर सकते हैं?",
        "search": "सहायता में खोजें…", "faq_title": "अक्सर पूछे जाने वाले प्रश्न",
        "faq": [
            ("मैं अपना पासवर्ड कैसे बदलूँ?", "सेटिंग्स › खाता › पासवर्ड खोलें, मौजूदा पासवर्ड लिखें और फिर नया पासवर्ड दो बार लिखें। हम आपको पुष्टि का ईमेल भेजेंगे।"),
            ("मुझे मेरी सामग्री क्यों नहीं दिख रही?", "जाँचें कि आपकी शैक्षणिक इकाई चुनी गई है और रीफ़्रेश करने के लिए नीचे खींचें। समस्या बनी रहे तो साइन आउट करके फिर से साइन इन करें।"),
            ("क्या मैं ऐप ऑफ़लाइन इस्तेमाल कर सकता हूँ?", "हाँ: खोली गई स्क्रीन डिवाइस पर सहेजी रहती हैं। कनेक्शन लौटते ही बदलाव भेज दिए जाते हैं।"),
            ("मेरे अंक कौन देख सकता है?", "केवल आपके शिक्षक, अभिभावक और विद्यालय प्रशासन।"),
        ],
        "contact": "हमें लिखें: सोमवार से शुक्रवार, 24 घंटे के भीतर जवाब।", "send": "संदेश भेजें",
        "confirm": "भाषा “{item.name}” में बदलें? ऐप फिर से शुरू होगा।",
    },
    "vi": {
        "language_name": "Tiếng Việt", "title": "Trung tâm trợ giúp", "greeting": "Xin chào, {user.firstName}. Chúng tôi có thể giúp gì cho bạn?",
        "search": "Tìm trong trợ giúp…", "faq_title": "Câu hỏi thường gặp",
        "faq": [
            ("Làm sao để đổi mật khẩu?", "Mở Cài đặt › Tài khoản › Mật khẩu, nhập mật khẩu hiện tại rồi nhập mật khẩu mới hai lần. Chúng tôi sẽ gửi email xác nhận."),
            ("Tại sao tôi không thấy tài liệu của mình?", "Hãy kiểm tra đơn vị học tập đã được chọn và kéo xuống để làm mới. Nếu vẫn lỗi, hãy đăng xuất rồi đăng nhập lại."),
            ("Tôi có thể dùng ứng dụng khi không có mạng không?", "Có: các màn hình đã mở được lưu trên thiết bị. Thay đổi sẽ được gửi ngay khi có kết nối."),
            ("Ai có thể xem điểm của tôi?", "Chỉ giáo viên, phụ huynh và ban giám hiệu nhà trường."),
        ],
        "contact": "Liên hệ: chúng tôi trả lời trong vòng 24 giờ, từ thứ Hai đến thứ Sáu.", "send": "Gửi tin nhắn",
        "confirm": "Đổi ngôn ngữ sang “{item.name}”? Ứng dụng sẽ khởi động lại.",
    },
}
ICONS = ["key.fill", "folder.badge.questionmark", "wifi.slash", "lock.shield"]


def localized_screen():
    slot_data = {}
    for locale, strings in LOCALES.items():
        for key in ("language_name", "title", "greeting", "search", "faq_title", "contact", "send", "confirm"):
            slot_data[f"{locale}.{key}"] = strings[key]
        for index, (question, answer) in enumerate(strings["faq"], 1):
            slot_data[f"{locale}.faq_{index}_question"] = question
            slot_data[f"{locale}.faq_{index}_answer"] = answer
    slot_data["locale"] = "es"
    zones = [
        {
            "id": "header", "type": "container", "distribution": "stacked",
            "slots": [
                {"id": "greeting", "control_type": "label", "bind": "slot:es.greeting", "style": "title-medium"},
                {"id": "search_field", "control_type": "search-bar", "bind": "slot:es.search", "placeholder": "Buscar…"},
            ],
        },
        {
            "id": "language", "type": "grouped-list", "title": "Idioma · Language · 言語 · اللغة",
            "slots": [
                {
                    "id": f"language_{locale.lower()}", "control_type": "list-item-navigation",
                    "label": strings["language_name"], "bind": f"slot:{locale}.title", "icon": "globe",
                    "accessibility_label": f"{strings['language_name']} ({locale})",
                }
                for locale, strings in LOCALES.items()
            ],
        },
    ]
    for locale, strings in LOCALES.items():
        slots = []
        for index in range(1, len(strings["faq"]) + 1):
            slots.append({
                "id": f"faq_{locale.lower()}_{index}", "control_type": "list-item", "label": strings["faq"][index - 1][0],
                "bind": f"slot:{locale}.faq_{index}_answer", "icon": ICONS[index - 1], "style": "body-small",
            })
        slots.append({
            "id": f"contact_{locale.lower()}", "control_type": "text-button", "label": strings["send"],
            "bind": f"slot:{locale}.contact", "icon": "envelope.fill",
        })
        zones.append({"id": f"faq_{locale.lower()}", "type": "grouped-list", "title": strings["faq_title"], "slots": slots})
    actions = []
    for locale, strings in LOCALES.items():
        actions.append({
            "id": f"set-locale-{locale.lower()}", "trigger": "BUTTON_CLICK", "trigger_slot_id": f"language_{locale.lower()}",
            "type": "CUSTOM", "config": {"event": "set_locale", "payload": {"locale": locale, "name": strings["language_name"]}},
        })
        actions.append({
            "id": f"contact-{locale.lower()}", "trigger": "BUTTON_CLICK", "trigger_slot_id": f"contact_{locale.lower()}",
            "type": "OPEN_URL",
            "config": {"url": f"https://edugo.test/{locale.lower()}/ayuda/contacto?asunto={strings['title']}&origen=app"},
        })
    screen = {
        "screen_id": "scr_help_center", "screen_key": "help-center", "screen_name": "Centro de ayuda",
        "pattern": "settings", "version": 7,
        "template": {"navigation": {"top_bar": {"title": "Centro de ayuda", "show_back": True}}, "zones": zones},
        "slot_data": slot_data, "data_endpoint": None, "data_config": None, "actions": actions,
        "handler_key": "settings", "updated_at": "2026-11-20T09:30:00Z",
    }
    return json.dumps(screen, ensure_ascii=False, indent=2) + "\n"


TIMELINE_TEXTS = [
    "今日は東京で新しいカフェを見つけました！コーヒーがとても美味しかったです ☕️",
    "週末は家族と一緒に京都へ。紅葉がきれいでした 🍁 #京都 #紅葉",
    "新产品发布会将于下周举行，敬请期待！🎉",
    "오늘 날씨가 정말 좋네요. 공원에서 산책했어요 🌳",
    "مرحبا بالجميع! يوم جميل في المدينة ☀️",
    "¡Qué partido tan increíble! Enhorabuena al equipo 👏👏",
    "Shipping a new release today: faster parsing, fewer allocations 🚀",
    "RT @news: 速報 — 新しい研究結果が発表されました https://example.com/news/2026/11/26",
]


def timeline(target_bytes=64_000):
    """The escaped timeline response (see the module's description)."""
    rng = random.Random(SEED + 1)
    posts = []
    size = 0
    index = 0
    while size < target_bytes:
        text = TIMELINE_TEXTS[rng.randrange(len(TIMELINE_TEXTS))]
        post_id = 1_000_000_000_000_000_000 + rng.randrange(10 ** 17)
        user_id = 10 ** 9 + rng.randrange(10 ** 9)
        name = ["さくら", "王伟", "김민준", "ليلى", "Lucía", "Sam"][index % 6]
        post = {
            "created_at": f"Wed Nov 26 {index % 24:02d}:{index % 60:02d}:15 +0000 2026",
            "id": post_id, "id_str": str(post_id), "text": text,
            "source": '<a href="https://example.com/download/iphone" rel="nofollow">Example for iPhone</a>',
            "truncated": False, "in_reply_to_status_id": None, "in_reply_to_user_id": None,
            "user": {
                "id": user_id, "id_str": str(user_id), "name": name, "screen_name": f"user_{user_id % 100_000}",
                "location": ["東京", "北京", "서울", "القاهرة", "Madrid", "London"][index % 6],
                "description": TIMELINE_TEXTS[(index + 3) % len(TIMELINE_TEXTS)],
                "url": None, "protected": False, "followers_count": rng.randrange(100_000),
                "friends_count": rng.randrange(5_000), "listed_count": rng.randrange(100),
                "created_at": "Mon Jan 05 08:00:00 +0000 2015", "favourites_count": rng.randrange(10_000),
                "verified": index % 7 == 0, "statuses_count": rng.randrange(50_000), "lang": None,
                "profile_image_url_https": f"https://images.example.com/profile/{user_id}/photo_normal.jpg",
                "default_profile": index % 2 == 0,
            },
            "geo": None, "coordinates": None, "place": None, "retweet_count": rng.randrange(1_000),
            "favorite_count": rng.randrange(5_000),
            "entities": {
                "hashtags": [{"text": "京都", "indices": [20, 23]}] if "#" in text else [],
                "urls": [{"url": "https://t.example/abc", "expanded_url": "https://example.com/news/2026/11/26",
                          "indices": [40, 63]}] if "https" in text else [],
                "user_mentions": [],
            },
            "favorited": False, "retweeted": False, "lang": ["ja", "zh", "ko", "ar", "es", "en"][index % 6],
        }
        posts.append(post)
        size += len(json.dumps(post, ensure_ascii=True, separators=(",", ":")))
        index += 1
    metadata = {"completed_in": 0.087, "max_id": posts[0]["id"], "query": "%E6%9D%B1%E4%BA%AC", "count": len(posts)}
    text = json.dumps({"statuses": posts, "search_metadata": metadata}, ensure_ascii=True, separators=(",", ":"))
    # `/` appears only inside strings: escaped everywhere, as the service writes it.
    return text.replace("/", "\\/")


def geojson(target_bytes=64_000):
    """The GeoJSON input (see the module's description): polygons that wander around a centre."""
    rng = random.Random(SEED + 2)
    features = []
    size = 0
    index = 0
    while size < target_bytes:
        longitude, latitude = rng.uniform(-170, 170), rng.uniform(-80, 80)
        ring = []
        for _ in range(40 + rng.randrange(40)):
            longitude += rng.uniform(-0.05, 0.05)
            latitude += rng.uniform(-0.05, 0.05)
            ring.append([longitude, latitude])
        ring.append(ring[0])
        feature = {
            "type": "Feature",
            "properties": {"name": f"Region {index}", "admin_level": 4 + index % 5, "area_km2": round(rng.uniform(10, 9000), 3)},
            "geometry": {"type": "Polygon", "coordinates": [ring]},
        }
        text = json.dumps(feature, separators=(",", ":"))
        features.append(text)
        size += len(text)
        index += 1
    return '{"type":"FeatureCollection","features":[' + ",".join(features) + "]}"


def main():
    HERE.mkdir(exist_ok=True)
    lookup = itunes_lookup()
    json.loads(lookup)  # valid JSON
    (HERE / "itunes-lookup.json").write_bytes(lookup.encode())
    screen = localized_screen()
    (HERE / "localized-screen.json").write_bytes(screen.encode())
    posts = timeline()
    json.loads(posts)
    (HERE / "escaped-timeline.json").write_bytes(posts.encode())
    shapes = geojson()
    json.loads(shapes)
    (HERE / "geojson.json").write_bytes(shapes.encode())
    for name, text in (("itunes-lookup.json", lookup), ("localized-screen.json", screen),
                       ("escaped-timeline.json", posts), ("geojson.json", shapes)):
        data = text.encode()
        print(f"{name}\t{len(data):,} bytes\t{sum(b > 0x7F for b in data):,} non-ASCII bytes\t{text.count(chr(92)):,} backslashes")


if __name__ == "__main__":
    main()
