package dev.sluice.admin.ui.browser;

/**
 * The roles tests find elements by, each with the CSS that selects the elements that may have
 * it (the accessible name then picks one, as a screen reader user would).
 */
enum Role {
    BUTTON("button, [role=button], input[type=submit], input[type=button], input[type=reset]"),
    LINK("a[href], [role=link]"),
    /** Any labelled form control: text box, password, select, textarea, checkbox. */
    FIELD("input:not([type=hidden]):not([type=submit]):not([type=button]), textarea, select, [role=textbox], [role=combobox]"),
    HEADING("h1, h2, h3, h4, h5, h6, [role=heading]"),
    ALERT("[role=alert]"),
    STATUS("[role=status]"),
    REGION("section[aria-label], section[aria-labelledby], [role=region], dialog[open], [role=dialog]");

    final String css;

    Role(String css) {
        this.css = css;
    }
}
