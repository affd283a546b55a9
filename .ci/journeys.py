"""What each EduGo role does from sign-in to sign-out, driven in the browser test's Chromium.

`run(t)` takes the browser test's module (its driver and helpers: visit, press, click, fill,
text, check, step, shot, sign_in, sign_out) and walks, for the super admin, the school admin,
the teacher, the student and the guardian: creating, editing and deleting a record (the delete
cancelled first: Cancel keeps the page and its record), searching, paging a list to its end, a
change made offline and delivered on reconnection, a conflict between two edits of one record,
screens of other roles refused, and signing out. The student takes an assessment from start to
result: the deadline is fixed when the attempt starts and kept across a reload, the score is
computed from the answers (the correct ones read from the demo data), and the result and the
history say so, newest first.
"""

import html.parser
import http.cookiejar
import json
import os
import re
import time
import urllib.parse
import urllib.request

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_ALLOWED = "No tienes acceso"
CONFLICT = "Otro usuario modificó estos datos"
DATA = os.path.join(ROOT, "tools", "catalog", "edugo", "data")


def load(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as file:
        return json.load(file)


class FormReader(html.parser.HTMLParser):
    """The fields of a page's forms (what a browser would submit) and its buttons' actions."""

    def __init__(self):
        super().__init__()
        self.fields = {}
        self.actions = []
        self.select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name:
            kind = attrs.get("type", "text")
            if kind not in ("checkbox", "radio") or "checked" in attrs:
                self.fields[name] = attrs.get("value", "on" if kind == "checkbox" else "")
        elif tag == "select" and name:
            self.select = name
            self.fields.setdefault(name, "")
        elif tag == "option" and self.select and "selected" in attrs:
            self.fields[self.select] = attrs.get("value", "")
        elif tag == "button" and attrs.get("formaction"):
            self.actions.append(attrs["formaction"])

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None


class OtherDevice:
    """The same account signed in on another device (its own preview session), over HTTP."""

    def __init__(self, base, email):
        self.base = base.rstrip("/")
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.post("/screen/app-login", "submit-login", {"email": email, "password": "edugo123"})

    def read(self, path, data=None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        with self.opener.open(self.base + path, body, timeout=20) as reply:
            return reply.read().decode("utf-8")

    def post(self, path, action, values):
        form = FormReader()
        form.feed(self.read(path))
        target = next((a for a in form.actions if action in a), None)
        if not target:
            return None
        return self.read(urllib.parse.urlsplit(target).path, {**form.fields, **values})

    def save(self, edit_path, values):
        """Opens `edit_path`, changes `values` and saves; whether the save was accepted."""
        page = self.post(edit_path, "/submit", values)
        return page is not None and "banner success" in page


class Journeys:
    def __init__(self, t):
        self.t = t
        self.driver = t.driver
        self.stamp = str(int(time.time()))[-6:]

    # Small steps a person takes.

    def has(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def form(self, values):
        for name, value in values:
            if self.has(f"[name='{name}']"):
                self.t.fill(name, value)

    def submit(self):
        self.t.click("button[formaction$='/submit']")

    def value(self, name):
        fields = self.has(f"[name='{name}']")
        return fields[0].get_attribute("value") if fields else None

    def choose(self, question, answer):
        """Taps an answer's row (the radio button is inside its label)."""
        radio = self.has(f"input[type=radio][name='{question}'][value='{answer}']")
        self.t.check(radio, f"question {question} offers answer {answer}")
        if radio:
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'}); arguments[0].click()", radio[0])

    def connection(self):
        self.t.click("#preview-connection")

    def open_row(self, words):
        """Opens the list row whose text holds `words`; whether there was one."""
        for row in self.has("a.row"):
            if words in row.text:
                self.t.press(row)
                return True
        self.t.check(False, f"a row with «{words}» is listed")
        return False

    def search(self, words):
        field = self.has("input[type=search]")
        self.t.check(field, "the list has a search field")
        if not field:
            return
        before = self.driver.execute_script("return history.length")
        field[0].clear()
        self.t.press(field[0], lambda: field[0].send_keys(words, Keys.ENTER))
        self.t.check(words.lower() in self.t.text().lower(), f"the search for «{words}» finds it")
        self.t.check(not self.has("a.back"), "a search filters the list in place: no back link to the last query")
        self.t.check(self.driver.execute_script("return history.length") <= before + 1,
                     "a search does not stack a page per query")

    def delete_cancelled_then_confirmed(self, record):
        """On a detail: Delete, Cancel (page and record kept), then Delete and confirm."""
        here = self.driver.current_url
        delete = self.has("[formaction$='/delete']")
        self.t.check(delete, f"the detail of «{record}» offers delete")
        if not delete:
            return False
        self.t.press(delete[0])
        self.t.check(self.has("dialog.confirm"), "delete asks for confirmation")
        cancel = [b for b in self.has("dialog.confirm button") if "destructive" not in (b.get_attribute("class") or "")]
        self.t.check(cancel, "the confirmation offers Cancel")
        if cancel:
            self.t.press(cancel[0])
            self.t.check(self.driver.current_url == here, f"Cancel keeps the page ({self.driver.current_url})")
            self.t.check(record in self.t.text() and "No encontrado" not in self.t.text(), "Cancel keeps the record")
            self.t.check(not self.has("dialog.confirm"), "Cancel closes the alert")
        self.t.press(self.has("[formaction$='/delete']")[0])
        self.t.click("dialog.confirm button.destructive")
        self.t.check(record not in self.t.text() or "eliminad" in self.t.text().lower(), "the confirmed delete removes it")
        return True

    def page_to_end(self, path, at_least):
        """Loads more until the list ends: every row once, at least `at_least` rows."""
        self.t.visit(path)
        counts = [self.t.rows()]
        for _ in range(20):
            more = self.has("a[rel=next]")
            if not more:
                break
            self.t.press(more[0])
            counts.append(self.t.rows())
            if counts[-1] <= counts[-2]:
                self.t.check(False, f"«Cargar más» added no row ({counts})")
                break
        hrefs = [a.get_attribute("href") for a in self.has("a.row")]
        self.t.check(not self.has("a[rel=next]"), f"the list ends: no more «Cargar más» after {counts}")
        self.t.check(len(set(hrefs)) == len(hrefs), "each row is listed once")
        self.t.check(counts[-1] >= at_least, f"the whole list is reached ({counts[-1]} rows, {at_least} expected)")
        return counts[-1]

    def conflict(self, email, edit_path, field, mine, theirs, name):
        """Two edits of one record: while this form is open another device saves the record; this
        save is then refused, saying so, with the form and its edit kept."""
        self.t.visit(edit_path)
        other = OtherDevice(self.t.base, email)
        self.t.check(other.save(edit_path, {field: theirs}), "the other device's edit is saved")
        self.t.fill(field, mine)
        self.submit()
        self.t.check(CONFLICT in self.t.text(), f"a conflicting save says so ({self.t.text()[-300:]!r})")
        self.t.check(urllib.parse.urlsplit(edit_path).path in self.driver.current_url, "and keeps the form open")
        self.t.check(self.value(field) == mine, "with the edit kept")
        self.t.shot(f"journey-conflict-{name}")
        # The person reloads, as the alert offers: the form shows the record as it is now.
        reload = [b for b in self.has("dialog.confirm button") if "Volver a cargar" in b.text]
        self.t.check(reload, "the conflict offers to reload")
        if reload:
            self.t.press(reload[0])
            self.t.check(self.value(field) == theirs, f"reloading shows the other device's {field}")

    def offline_change(self, make, delivered, describe):
        """A change made offline is queued, then delivered when the connection returns."""
        self.connection()
        self.t.check("sin conexión" in self.t.text().lower(), "the connection is off")
        make()
        self.t.check(re.search(r"\d+ cambios? pendientes?", self.t.text()), f"{describe} offline is pending")
        self.connection()
        try:
            WebDriverWait(self.driver, 10).until(lambda _: "pendiente" not in self.t.text())
        except TimeoutException:
            pass
        self.t.check("pendiente" not in self.t.text(), f"{describe} is delivered on reconnection, without a new sign-in")
        # Delivered within seconds of reconnecting (the page is reloaded until it shows).
        arrived = delivered()
        for _ in range(8):
            if arrived:
                break
            time.sleep(1)
            arrived = delivered()
        self.t.check(arrived, f"{describe} made offline is on the server after reconnection")

    def refused(self, paths):
        for path in paths:
            self.t.visit(path)
            self.t.check(NOT_ALLOWED in self.t.text(), f"{path} answers «{NOT_ALLOWED}»")
            self.t.check("Promedio" not in self.t.text() and "@edugo.test" not in self.t.text().split("Conexión")[-1],
                         f"{path} shows none of its figures or people")

    def toggle_setting(self, name):
        self.t.visit("/screen/app-settings")
        switch = self.has(f"input[type=checkbox][name='{name}']")
        self.t.check(switch, f"settings has the {name} switch")
        if not switch:
            return None
        was = switch[0].is_selected()
        self.t.press(switch[0])
        return was

    def setting(self, name):
        self.t.visit("/screen/app-settings")
        switch = self.has(f"input[type=checkbox][name='{name}']")
        return switch[0].is_selected() if switch else None

    # The roles.

    def superadmin(self):
        t = self.t
        t.step("journey, super admin: create a school, find it, edit it, conflict, delete (cancelled, then confirmed)")
        t.sign_in("superadmin@edugo.test")
        name = f"Escuela Journey {self.stamp}"
        t.visit("/screen/schools-list")
        t.click("button.toolbar.primaryAction, button.toolbar[formaction$='/create']")
        self.form([("name", name), ("code", f"EJ-{self.stamp}"), ("status", "activa"), ("city", "Lima"),
                   ("country", "Perú"), ("email", f"journey{self.stamp}@edugo.test"), ("phone", "+51 1 555 0101"),
                   ("website", "https://edugo.test")])
        self.submit()
        t.check("Escuela creada" in t.text(), "the school is created")
        t.visit("/screen/schools-list")
        self.search(name)
        if self.open_row(name):
            detail = self.driver.current_url
            school = re.search(r"id=([^&]+)", detail)
            t.check(school, f"the school's detail carries its id ({detail})")
            school = school.group(1) if school else ""
            t.visit(f"/screen/school-edit?id={school}")
            t.fill("city", "Arequipa")
            self.submit()
            t.check("Arequipa" in t.text() and "Escuela actualizada" in t.text(), "the edit is saved and shown")
            self.conflict("superadmin@edugo.test", f"/screen/school-edit?id={school}", "city", "Cusco", "Trujillo", "school")
            t.step("journey, super admin: a school edited offline is saved on reconnection")
            t.visit(f"/screen/school-edit?id={school}")

            def edit_offline():
                t.fill("city", "Piura")
                self.submit()

            def delivered():
                t.visit(f"/screen/school-detail?id={school}")
                return "Piura" in t.text()

            self.offline_change(edit_offline, delivered, "a school's city")
            t.visit(f"/screen/school-detail?id={school}")
            self.delete_cancelled_then_confirmed(name)
            t.visit(f"/screen/school-detail?id={school}")
            t.check("No encontrado" in t.text(), "the deleted school no longer opens")
        t.step("journey, super admin: a role's permissions are its own")
        t.visit("/screen/role-detail?id=rol-007")
        t.check(t.rows() == 3, f"the guardian role's three permissions are rows ({t.rows()})")
        t.click("button[formaction$='/view-permissions']")
        t.check("role-permissions" in self.driver.current_url and t.rows() == 3,
                f"Ver permisos lists the role's three permissions, not the catalogue ({t.rows()} rows)")
        t.step("journey, super admin: every user and every material, paged to the end")
        self.page_to_end("/screen/users-list", len(load("users.json")))
        self.page_to_end("/screen/materials-list", len(load("materials.json")))
        t.sign_out()

    def schooladmin(self):
        t = self.t
        t.step("journey, school admin: create a unit, edit it, conflict, offline, delete (cancelled, then confirmed)")
        t.sign_in("admin.escuela@edugo.test")
        name = f"Unidad Journey {self.stamp}"
        t.visit("/screen/unit-create?id=sch-001")
        self.form([("name", name), ("level", "Secundaria"), ("grade", "8"), ("section", "J"), ("academic_year", "2026"),
                   ("shift", "Mañana"), ("teacher_id", "usr-009"), ("status", "activa")])
        self.submit()
        t.check("Unidad creada" in t.text(), f"the unit is created ({t.text()[-200:]!r})")
        t.visit("/screen/units-list?id=sch-001")
        unit = None
        for row in self.has("a.row"):
            if name in row.text:
                unit = re.search(r"item=([^&]+)", row.get_attribute("href") or "")
        t.check(unit, "the new unit is listed with its school's units")
        if unit:
            unit = unit.group(1)
            t.visit(f"/screen/unit-edit?id={unit}")
            t.fill("section", "K")
            self.submit()
            t.check("Unidad actualizada" in t.text(), "the unit's edit is saved")
            self.conflict("admin.escuela@edugo.test", f"/screen/unit-edit?id={unit}", "name", name + " mía", name + " suya",
                          "unit")
            t.visit(f"/screen/unit-edit?id={unit}")

            def edit_offline():
                t.fill("section", "Z")
                self.submit()

            def delivered():
                t.visit(f"/screen/unit-detail?id={unit}")
                return re.search(r"Sección\s+Z\b", t.text()) is not None or " Z" in t.text()

            self.offline_change(edit_offline, delivered, "a unit's section")
            t.visit(f"/screen/unit-detail?id={unit}")
            self.delete_cancelled_then_confirmed(name + " suya" if name + " suya" in t.text() else name)
        t.step("journey, school admin: search the school's users and page the memberships to the end")
        t.visit("/screen/users-list")
        self.search("Pérez")
        self.page_to_end("/screen/memberships-list", 1)
        t.sign_out()

    def teacher(self):
        t = self.t
        t.step("journey, teacher: create, search, edit, conflict, delete (cancelled, then confirmed), page to the end")
        t.sign_in("docente@edugo.test")
        title = f"Journey {self.stamp}"
        t.visit("/screen/material-create")
        self.form([("title", title), ("description", "Recorrido"), ("subject", "Ciencias"), ("grade", "7"),
                   ("file_url", "https://edugo.test/j.pdf"), ("file_type", "PDF"), ("unit_id", "unt-001"),
                   ("status", "borrador")])
        self.submit()
        t.check("Material creado" in t.text(), "the material is created")
        t.visit("/screen/materials-list")
        self.search(title)
        if self.open_row(title):
            material = re.search(r"id=([^&]+)", self.driver.current_url)
            material = material.group(1) if material else ""
            self.conflict("docente@edugo.test", f"/screen/material-edit?id={material}", "title", title + " mío",
                          title + " suyo", "material")
            t.visit(f"/screen/material-detail?id={material}")
            shown = title + " suyo" if title + " suyo" in t.text() else title
            self.delete_cancelled_then_confirmed(shown)
        self.page_to_end("/screen/materials-list", 1)
        t.step("journey, teacher: a student's result speaks of the student")
        t.visit("/screen/assessment-result?id=att-030")
        t.check("Alejandro Pérez Zúñiga" in t.text(), "the student is named")
        t.check("Reintentar" not in t.text() and "Aprobaste" not in t.text(),
                "the teacher is neither offered the student's retry nor congratulated")
        t.sign_out()

    def student(self):
        t = self.t
        t.step("journey, student: other roles' screens are refused")
        t.sign_in("estudiante@edugo.test")
        self.refused(["/screen/dashboard-schooladmin", "/screen/dashboard-superadmin", "/screen/dashboard-teacher",
                      "/screen/dashboard-guardian", "/screen/users-list", "/screen/membership-add",
                      "/screen/material-create", "/screen/user-create"])

        t.step("journey, student: an assessment from start to result")
        assessment = next(a for a in load("assessments.json") if a["material_id"] == "mat-002")
        questions = assessment["questions"]
        correct = {q["id"]: q["correct"] for q in questions}
        wrong = {q["id"]: next(o["value"] for o in q["options"] if o["value"] != q["correct"]) for q in questions}
        t.visit("/screen/assessment-take?id=mat-002")

        def remaining():
            clock = re.search(r"Tiempo restante\s+(\d+):(\d\d)", t.text())
            return int(clock.group(1)) * 60 + int(clock.group(2)) if clock else None

        started = remaining()
        t.check(started is not None, "the assessment shows the time left")
        time.sleep(4)
        self.driver.refresh()
        t.page_ok()
        after_reload = remaining()
        t.check(started is not None and after_reload is not None and after_reload <= started - 3,
                f"the deadline is kept across a reload ({started} s, then {after_reload} s)")
        # One question left unanswered: refused, the answers and the deadline kept.
        answers = dict(correct)
        answers[questions[-1]["id"]] = wrong[questions[-1]["id"]]
        for question in questions[:-1]:
            self.choose(question["id"], answers[question["id"]])
        before_refusal = remaining()
        self.submit()
        t.check("Faltan respuestas" in t.text(), "an unanswered question is refused")
        refused_at = remaining()
        t.check(refused_at is not None and before_refusal is not None and refused_at <= before_refusal,
                f"the refusal does not restart the countdown ({before_refusal} s, then {refused_at} s)")
        kept = [q["id"] for q in questions[:-1] if self.has(f"input[type=radio][name='{q['id']}']:checked")]
        t.check(len(kept) == len(questions) - 1, f"the answers given are kept ({len(kept)})")
        last = questions[-1]["id"]
        self.choose(last, answers[last])
        self.submit()
        right = sum(answers[q] == correct[q] for q in correct)
        score = round(right * assessment["max_score"] / len(questions))
        verdict = "Aprobado" if score >= assessment["passing_score"] else "No aprobado"
        t.check("assessment-result" in self.driver.current_url, "submitting opens the result")
        t.check(re.search(rf"\b{score}\s+Puntaje", t.text()) and re.search(rf"\b{right}\s+Respuestas correctas", t.text()),
                f"the result shows the score computed from the answers: {score}, {right} of {len(questions)}"
                f" ({t.text()[-400:]!r})")
        t.check(verdict in t.text(), f"and says {verdict}")
        t.check("—" not in t.text().split("Conexión")[-1], "every value of the result is filled in")
        t.shot("journey-assessment-result")
        t.visit("/screen/attempts-history")
        first = self.has("a.row")
        t.check(first and assessment["material_title"] in first[0].text and f"Puntaje {score}/" in first[0].text,
                f"the history lists the new attempt first ({first[0].text if first else ''!r})")

        t.step("journey, student: an assessment submitted offline is sent once on reconnection")
        attempts = len(self.has("a.row"))

        def submit_twice():
            t.visit("/screen/assessment-take?id=mat-002")
            for question in questions:
                self.choose(question["id"], correct[question["id"]])
            self.submit()
            # A second tap: the pending form's submit is disabled; if it is still enabled, it must
            # queue nothing more.
            again = [b for b in self.has("button[formaction$='/submit']") if b.is_enabled()]
            if again:
                self.submit()
            t.check("1 cambio pendiente" in t.text(), f"a double submit offline is one change ({t.text()[:200]!r})")

        def delivered():
            t.visit("/screen/attempts-history")
            rows = self.has("a.row")
            return len(rows) == attempts + 1 and f"Puntaje {assessment['max_score']}/" in rows[0].text

        self.offline_change(submit_twice, delivered, "an assessment")

        t.step("journey, student: search, page the materials to the end, a setting, sign out")
        t.visit("/screen/materials-list")
        self.search("Andes")
        self.page_to_end("/screen/materials-list", 1)
        was = self.toggle_setting("email_notifications")
        t.check(was is not None and self.setting("email_notifications") != was, "a changed setting is kept")
        self.toggle_setting("email_notifications")
        t.sign_out()

    def guardian(self):
        t = self.t
        t.step("journey, guardian: children, progress, other roles' screens refused, an offline setting")
        t.sign_in("tutor@edugo.test")
        t.visit("/screen/dashboard-guardian")
        t.check(t.rows() == 2 and "Requiere atención" in t.text(),
                "the dashboard lists both children, Julián below the pass mark")
        self.refused(["/screen/dashboard-student", "/screen/dashboard-teacher", "/screen/dashboard-schooladmin",
                      "/screen/membership-add", "/screen/users-list", "/screen/material-create"])
        t.visit("/screen/child-progress?id=usr-020")
        t.check(NOT_ALLOWED in t.text() or "No encontrado" in t.text(), "another family's child is refused")
        t.check("Promedio" not in t.text(), "with none of that child's figures")
        t.visit("/screen/children-list")
        t.check(t.rows() == 2, "the guardian's children are listed")
        if self.has("a.row"):
            t.press(self.has("a.row")[0])
            t.check("child-progress" in self.driver.current_url, "a child opens their progress")
        t.visit("/screen/app-settings")
        was = self.setting("push_notifications")

        def change():
            switch = self.has("input[type=checkbox][name='push_notifications']")
            if switch:
                t.press(switch[0])

        self.offline_change(change, lambda: self.setting("push_notifications") == (not was), "a setting")
        t.sign_out()


def run(t):
    journeys = Journeys(t)
    for role in [journeys.superadmin, journeys.schooladmin, journeys.teacher, journeys.student, journeys.guardian]:
        try:
            role()
        except Exception as error:  # one role's broken step must not hide the others' results
            t.check(False, f"the journey stopped: {type(error).__name__}: {str(error).splitlines()[0][:200]}")
            t.driver.delete_all_cookies()
            if len(t.driver.window_handles) > 1:
                for handle in t.driver.window_handles[1:]:
                    t.driver.switch_to.window(handle)
                    t.driver.close()
                t.driver.switch_to.window(t.driver.window_handles[0])
