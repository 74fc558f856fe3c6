import type {
  IAuthenticateGeneric,
  Icon,
  ICredentialTestRequest,
  ICredentialType,
  INodeProperties,
} from "n8n-workflow";

/**
 * The service's base URL and an API key (`mrk_...`, sent as `x-api-key`). n8n tests them with
 * `GET /api/v1/account`, which any valid key may read: a wrong key or URL fails the test with the service's answer.
 */
export class MediaRenderApi implements ICredentialType {
  name = "mediaRenderApi";

  displayName = "Media Render API";

  icon: Icon = { light: "file:../icons/mediaRender.svg", dark: "file:../icons/mediaRender.dark.svg" };

  documentationUrl =
    "https://github.com/media-render/media-render-service/tree/main/integrations/n8n#credentials";

  properties: INodeProperties[] = [
    {
      displayName: "Base URL",
      name: "baseUrl",
      type: "string",
      default: "http://127.0.0.1:8787",
      placeholder: "https://render.example.com",
      description: "Where the service answers, without a trailing /api",
      required: true,
    },
    {
      displayName: "API Key",
      name: "apiKey",
      type: "string",
      typeOptions: { password: true },
      default: "",
      placeholder: "mrk_...",
      description: "A key with jobs and media permissions (npm run key, or the console's API keys page)",
      required: true,
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: "generic",
    properties: {
      headers: {
        "x-api-key": "={{$credentials.apiKey}}",
      },
    },
  };

  test: ICredentialTestRequest = {
    request: {
      baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
      url: "/api/v1/account",
      method: "GET",
    },
  };
}
