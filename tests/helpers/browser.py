"""Browser test helpers: a page that gathers its script errors, and what on a page is too
wide for the viewport or too small to tap."""

from __future__ import annotations

from playwright.async_api import Browser, Page

# Everything meant to be tapped as a button: form controls, the tabs, the pagers, the
# replay's controls, the header's home link and the score sheet's hand numbers.
TAPPED = ("button, select, nav a, header a, .viewer .controls button, table.sheet tbody a")


async def new_page(browser: Browser, width: int = 1000) -> tuple[Page, list[str]]:
    """A page ``width`` px wide, and the list its script errors and console warnings go to."""
    page = await browser.new_page(viewport={"width": width, "height": 900})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"script error: {e}"))
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "warning") else None)
    return page, problems


async def overflow(page: Page, width: int, tapped: str = TAPPED) -> list[str]:
    """What makes the page wider than the viewport's ``width``, and (on a phone) the
    ``tapped`` things under 44 px."""
    return list(await page.evaluate("""([tapped, width]) => {
      const out = [];
      const touch = width < 500;
      if (document.documentElement.scrollWidth > width) {
        const wide = [...document.body.querySelectorAll('*')].filter(e => {
          const r = e.getBoundingClientRect();
          return r.right > width + 1 && !e.closest('.scroll');
        }).slice(0, 5).map(e => e.tagName + '.' + e.className);
        out.push(`page ${document.documentElement.scrollWidth} px wide > ${width}: ${wide}`);
      }
      for (const e of touch ? document.querySelectorAll(tapped) : []) {
        const r = e.getBoundingClientRect();
        if (r.width && r.height < 43.5) {
          out.push(`${e.tagName} "${e.textContent.trim().slice(0, 30)}" ${r.height} px tall`);
        }
      }
      return out;
    }""", [tapped, width]))
