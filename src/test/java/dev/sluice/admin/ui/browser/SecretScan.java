package dev.sluice.admin.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.Cookie;

/**
 * Looks for secrets everywhere a page could keep one: its text, every attribute, every form
 * control's value, localStorage, sessionStorage, {@code document.cookie}, the title and the
 * address, and the browser's cookies (HttpOnly ones too) — and fails naming each secret and
 * where it was found.
 */
final class SecretScan {
    private static final String SCAN = """
            const secrets = arguments[0];
            const found = [];
            const check = (where, text) => {
              if (!text) return;
              for (const [name, value] of Object.entries(secrets)) {
                if (String(text).includes(value)) found.push(name + ' in ' + where);
              }
            };
            const describe = el => {
              if (!el) return '?';
              let d = el.tagName.toLowerCase();
              if (el.id) d += '#' + el.id;
              const label = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent);
              if (label) d += ' labelled "' + label.trim() + '"';
              return '<' + d + '>';
            };
            const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
            for (let node = walker.currentNode; node; node = walker.nextNode()) {
              if (node.nodeType === Node.TEXT_NODE) {
                check('the text of ' + describe(node.parentElement), node.nodeValue);
              } else {
                for (const attribute of node.attributes) check('the attribute ' + attribute.name + ' of ' + describe(node), attribute.value);
                if (typeof node.value === 'string') check('the value of ' + describe(node), node.value);
              }
            }
            for (const [name, storage] of [['localStorage', localStorage], ['sessionStorage', sessionStorage]]) {
              for (let i = 0; i < storage.length; i++) {
                const key = storage.key(i);
                check(name + ' key "' + key + '"', key);
                check(name + '["' + key + '"]', storage.getItem(key));
              }
            }
            check('document.cookie', document.cookie);
            check('document.title', document.title);
            check('the address', location.href);
            return found;
            """;

    private SecretScan() {}

    /**
     * Fails when any of {@code secrets} (a description, such as "the master key", to its value)
     * is anywhere in the page or its cookies.
     */
    static void assertNone(Browser browser, Map<String, String> secrets) {
        assertThat(find(browser, secrets)).as("secrets in the page at " + browser.driver().getCurrentUrl()).isEmpty();
    }

    /** Where each secret was found, e.g. {@code "the master key in the value of <input#field-1>"}. */
    static List<String> find(Browser browser, Map<String, String> secrets) {
        Map<String, String> wanted = new LinkedHashMap<>();
        secrets.forEach((name, value) -> {
            if (value == null || value.length() < 8) {
                throw new IllegalArgumentException(name + ": a secret to look for must be at least 8 characters");
            }
            wanted.put(name, value);
        });
        @SuppressWarnings("unchecked")
        List<String> found = new ArrayList<>((List<String>) browser.js(SCAN, wanted));
        for (Cookie cookie : browser.driver().manage().getCookies()) {
            wanted.forEach((name, value) -> {
                if (cookie.getValue().contains(value) || cookie.getName().contains(value)) {
                    found.add(name + " in the cookie " + cookie.getName());
                }
            });
        }
        return found;
    }
}
