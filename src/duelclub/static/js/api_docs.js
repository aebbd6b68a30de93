// Starts Swagger UI on /docs or ReDoc on /redoc (web/routes/docs.py): a file of its own, since the CSP allows
// no inline script. ReDoc gets the page's style nonce (its <style> elements need it under the CSP); it is
// passed as data-style-nonce because browsers hide the value of a nonce attribute from scripts.
const swagger = document.getElementById("swagger-ui");
if (swagger) {
  window.SwaggerUIBundle({
    url: swagger.dataset.specUrl,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    presets: [window.SwaggerUIBundle.presets.apis],
  });
}
const redoc = document.getElementById("redoc");
if (redoc) {
  window.Redoc.init(redoc.dataset.specUrl, { nonce: redoc.dataset.styleNonce, disableSearch: true }, redoc);
}
