package dev.sluice.admin.ui.browser;

import java.util.ArrayList;
import java.util.List;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Finds the visible elements of a role whose accessible name is exactly a given one, as
 * Chromium computes it for screen readers (WebDriver's computed label): a field by its
 * {@code <label>}, a button by its text or {@code aria-label}. A script picks the visible
 * candidates whose text, label or {@code aria-label} contains the name, so only a few names
 * are asked of the browser.
 */
final class Find {
    private static final String CANDIDATES = """
            const [css, wanted] = arguments;
            const norm = s => (s || '').replace(/\\s+/g, ' ').trim().toLowerCase();
            const want = norm(wanted);
            const visible = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
            const texts = el => {
              const parts = [el.getAttribute('aria-label'), el.textContent, el.value, el.title, el.placeholder];
              for (const label of el.labels || []) parts.push(label.textContent);
              for (const id of (el.getAttribute('aria-labelledby') || '').split(/\\s+/)) {
                const by = id && document.getElementById(id);
                if (by) parts.push(by.textContent);
              }
              return parts.map(norm);
            };
            return [...document.querySelectorAll(css)].filter(el => visible(el) && texts(el).some(t => t.includes(want)));
            """;

    private Find() {}

    /** The visible elements of {@code role} named exactly {@code name} (whitespace folded). */
    static List<WebElement> all(WebDriver driver, Role role, String name) {
        @SuppressWarnings("unchecked")
        List<WebElement> candidates = (List<WebElement>) ((JavascriptExecutor) driver).executeScript(CANDIDATES, role.css, name);
        List<WebElement> named = new ArrayList<>();
        String wanted = fold(name);
        for (WebElement candidate : candidates) {
            try {
                if (fold(candidate.getAccessibleName()).equals(wanted)) {
                    named.add(candidate);
                }
            } catch (StaleElementReferenceException gone) {
                // The page re-rendered meanwhile; the caller looks again.
            }
        }
        return named;
    }

    /** The accessible names of every visible element of {@code role}: what a failure message lists. */
    static List<String> names(WebDriver driver, Role role) {
        List<String> names = new ArrayList<>();
        for (WebElement element : driver.findElements(org.openqa.selenium.By.cssSelector(role.css))) {
            try {
                if (element.isDisplayed()) {
                    names.add(element.getAccessibleName());
                }
            } catch (StaleElementReferenceException gone) {
                // Left out: it is no longer on the page.
            }
        }
        return names;
    }

    static String fold(String text) {
        return text == null ? "" : text.replaceAll("\\s+", " ").strip();
    }
}
