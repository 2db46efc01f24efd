package dev.sluice.admin.ui.browser;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a test class that drives the admin UI in a real headless Chromium: it runs only where
 * the browser is found, and fails in CI where it is not ({@link RequiresChromium}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("browser")
@ExtendWith(RequiresChromium.class)
@interface BrowserTest {}
