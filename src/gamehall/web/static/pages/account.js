// Sign up (/signup) and sign in (/signin): the rules shown before you type (GET
// /api/account/rules: the server's own), a confirmation of the password, each error beside the
// field it concerns (checked here before sending, then the server's answer by its code), a link
// between the two pages, and back to where you came from (?next=) once done.

import { getJSON } from "../lib/api.js";
import { h, replace } from "../dom.js";
import { me, onMe, playerLink, signIn, signOut, signUp } from "../lib/hall.js";

/** The page to go back to: a path of this site (never another's), and not these pages. */
export function nextPath(search = location.search) {
  const next = new URLSearchParams(search).get("next") || "/";
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (/^\/sign(in|up)(\?|#|$)/.test(next)) return "/";
  return next;
}

const withNext = (path, next) => (next === "/" ? path : `${path}?next=${encodeURIComponent(next)}`);

/** The server's message as a sentence ("the name 'Ada' is taken" -> "The name 'Ada' is taken."). */
function sentence(text) {
  const trimmed = String(text || "").trim();
  if (!trimmed) return "";
  const first = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

// Which field a refusal concerns (the rest are the form's).
const FIELD_OF = { bad_name: "username", name_taken: "username", bad_password: "password" };

const chars = (text) => [...text].length;

/** What is wrong with a username by the rules (null: nothing seen here; the server decides). */
export function usernameProblem(value, rules) {
  const name = value.normalize("NFKC").trim();
  if (!name) return "Choose a username.";
  const length = chars(name);
  if (length < rules.name_min || length > rules.name_max) return `A username has ${rules.name_min} to ${rules.name_max} characters; this one has ${length}.`;
  if (!/^[\p{L}\p{N}]/u.test(name)) return "A username starts with a letter or a digit.";
  const odd = [...name].find((c) => !/[\p{L}\p{N}\p{M}_-]/u.test(c));
  if (odd !== undefined) return `A username has only letters, digits, _ and -; not ${odd === " " ? "a space" : `“${odd}”`}.`;
  return null;
}

export function passwordProblem(value, rules) {
  const length = chars(value);
  if (length < rules.password_min) return `A password has at least ${rules.password_min} characters; this one has ${length}.`;
  if (length > rules.password_max) return `A password has at most ${rules.password_max} characters.`;
  return null;
}

function field({ id, label, input, rules, note }) {
  const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
  const ruleList = rules?.length ? h("ul", { class: "field-rules", id: `${id}-rules` }, rules.map((rule) => h("li", {}, rule))) : null;
  const described = [ruleList ? `${id}-rules` : null, `${id}-error`].filter(Boolean).join(" ");
  input.setAttribute("id", id);
  input.setAttribute("aria-describedby", described);
  const wrap = h("div", { class: "account-field", "data-field": id }, h("label", { for: id }, label), note, ruleList, input, error);
  return {
    element: wrap,
    input,
    show(message) {
      error.textContent = message || "";
      error.hidden = !message;
      if (message) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    },
    shown: () => !error.hidden,
  };
}

function accountPage(ctx, kind) {
  const signup = kind === "signup";
  const next = nextPath();
  const body = h("div", { class: "account-page-body" }, ctx.loading());
  ctx.page(kind, h("section", { class: "panel account-page" }, h("h1", {}, signup ? "Sign up" : "Sign in"), body));
  document.title = `${signup ? "Sign up" : "Sign in"} · gamehall`;
  let rules = null;
  let built = false;

  const signedInView = (who) =>
    replace(
      body,
      h("p", {}, "You are signed in as ", playerLink(who.name, { "data-me": who.name }), "."),
      h(
        "div",
        { class: "row" },
        h("a", { class: "button primary", href: next }, "Go on"),
        h("button", { type: "button", class: "ghost", onClick: () => signOut(false).catch((error) => ctx.notify(error.message)) }, "Sign out"),
      ),
    );

  const formView = (who) => {
    built = true;
    const user = field({
      id: "account-username",
      label: "Username",
      input: h("input", { name: "username", autocomplete: "username", autocapitalize: "none", spellcheck: "false", maxlength: 64, required: true }),
      rules: signup ? rules.name_rules : null,
    });
    const pass = field({
      id: "account-password",
      label: "Password",
      input: h("input", { name: "password", type: "password", autocomplete: signup ? "new-password" : "current-password", maxlength: rules.password_max, required: true }),
      rules: signup ? rules.password_rules : null,
    });
    const confirm = signup
      ? field({ id: "account-confirm", label: "Password again", input: h("input", { name: "confirm", type: "password", autocomplete: "new-password", maxlength: rules.password_max, required: true }) })
      : null;
    const formError = h("p", { class: "field-error form-error", role: "alert", hidden: true });
    const submit = h("button", { type: "submit", class: "primary" }, signup ? "Create account" : "Sign in");
    const form = h("form", { class: "account-page-form", novalidate: true, "data-kind": kind }, user.element, pass.element, confirm?.element, formError, submit);
    const fields = { username: user, password: pass, confirm };

    const problems = () => {
      const found = {};
      if (signup) {
        found.username = usernameProblem(user.input.value, rules);
        found.password = passwordProblem(pass.input.value, rules);
        found.confirm = confirm.input.value === pass.input.value ? null : confirm.input.value ? "The two passwords differ." : "Type the password again.";
      } else {
        found.username = user.input.value.trim() ? null : "Type your username.";
        found.password = pass.input.value ? null : "Type your password.";
      }
      return found;
    };
    const showForm = (message) => {
      formError.textContent = message || "";
      formError.hidden = !message;
    };
    // An error shown goes as soon as what it says is mended.
    for (const [name, entry] of Object.entries(fields)) {
      entry?.input.addEventListener("input", () => {
        const now = problems();
        if (entry.shown() && !now[name]) entry.show(null);
        if (name === "password" && confirm?.shown() && !now.confirm) confirm.show(null);
      });
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      showForm(null);
      const found = problems();
      let first = null;
      for (const [name, entry] of Object.entries(fields)) {
        if (!entry) continue;
        entry.show(found[name]);
        if (found[name] && !first) first = entry;
      }
      if (first) {
        first.input.focus();
        return;
      }
      submit.disabled = true;
      try {
        await (signup ? signUp : signIn)(user.input.value.normalize("NFKC").trim(), pass.input.value);
        ctx.notify(signup ? "Welcome! Your account is made and you are signed in." : "You are signed in.", "info");
        ctx.navigate(next, { replaceState: true });
      } catch (error) {
        const target = fields[FIELD_OF[error.code]];
        if (target) {
          target.show(sentence(error.message));
          target.input.focus();
        } else showForm(sentence(error.message));
        submit.disabled = false;
      }
    });

    const other = signup
      ? h("p", { class: "account-switch" }, "Have an account already? ", h("a", { href: withNext("/signin", next) }, "Sign in"))
      : h("p", { class: "account-switch" }, "No account yet? ", h("a", { href: withNext("/signup", next) }, "Sign up"), " (a minute, no e-mail).");
    replace(
      body,
      h(
        "p",
        { class: "account-intro" },
        "You play as ",
        playerLink(who.name, { "data-me": who.name }),
        ", a guest: casual games need no account, and you may keep that name. ",
        signup ? "An account keeps your name, games and ratings on any device, and lets you play rated games." : "Sign in to play rated games and find your games on any device.",
      ),
      form,
      other,
    );
    user.input.focus();
  };

  let unsubscribe = () => {};
  Promise.all([getJSON("/api/account/rules"), me()])
    .then(([answer]) => {
      rules = answer;
      unsubscribe = onMe((who) => {
        if (who.account) signedInView(who);
        else if (!built || !body.querySelector("form")) formView(who);
      });
    })
    .catch((error) => replace(body, ctx.failure(error)));
  return () => unsubscribe();
}

export const signInPage = (ctx) => accountPage(ctx, "signin");
export const signUpPage = (ctx) => accountPage(ctx, "signup");
