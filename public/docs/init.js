// Swagger UI reads Loam's own OpenAPI document; no request leaves this origin.
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    validatorUrl: null,
    tryItOutEnabled: true,
  });
});
