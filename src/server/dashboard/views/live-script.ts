/**
 * The live part of the events pages: new rows from the server's event stream,
 * delivery states updated in place, and a reload of a page that shows one event
 * when one of its deliveries moves. Without it the pages still work (reload).
 */
export const LIVE_SCRIPT = `
(() => {
  const root = document.querySelector("[data-stream]");
  if (!root || !window.EventSource) return;
  const source = new EventSource(root.dataset.stream);
  source.addEventListener("open", () => root.setAttribute("data-live", "on"));
  source.addEventListener("error", () => root.setAttribute("data-live", "off"));
  source.addEventListener("event", (message) => {
    const rows = document.getElementById("event-rows");
    if (!rows) return;
    document.getElementById("no-events")?.remove();
    rows.insertAdjacentHTML("afterbegin", message.data);
  });
  source.addEventListener("delivery", (message) => {
    const update = JSON.parse(message.data);
    if (root.dataset.event === update.eventId) return location.reload();
    const cell = document.getElementById("deliveries-" + update.eventId);
    if (cell) cell.innerHTML = update.html;
  });
})();
`;
