/** The node's parameters: resources, their operations, and each operation's fields. */
import type { INodeProperties } from "n8n-workflow";

const EXAMPLE_IMAGE = JSON.stringify(
  {
    width: 640,
    height: 360,
    backgroundColor: "#1e90ff",
    layers: [
      { type: "text", text: "Hello", x: 320, y: 180, fontSize: 48, color: "#ffffff", align: "center" },
    ],
  },
  null,
  2,
);

const EXAMPLE_VIDEO = JSON.stringify(
  {
    width: 640,
    height: 360,
    fps: 25,
    clips: [
      {
        duration: 2,
        layers: [
          { type: "fill-color", color: "#1e90ff" },
          { type: "title", text: "Hello" },
        ],
      },
    ],
  },
  null,
  2,
);

const show = (resource: string, operation: string[]) => ({ show: { resource: [resource], operation } });
const RENDERS = ["renderImage", "renderVideo", "renderTemplate"];

const resource: INodeProperties = {
  displayName: "Resource",
  name: "resource",
  type: "options",
  noDataExpression: true,
  options: [
    { name: "File", value: "file" },
    { name: "Job", value: "job" },
    { name: "Render", value: "render" },
  ],
  default: "render",
};

const operations: INodeProperties[] = [
  {
    displayName: "Operation",
    name: "operation",
    type: "options",
    noDataExpression: true,
    displayOptions: { show: { resource: ["render"] } },
    options: [
      {
        name: "Render Image",
        value: "renderImage",
        action: "Render an image",
        description: "Render an image from a config and wait for it",
      },
      {
        name: "Render Template",
        value: "renderTemplate",
        action: "Render a template",
        description: "Render a stored template with variables and wait for it",
      },
      {
        name: "Render Video",
        value: "renderVideo",
        action: "Render a video",
        description: "Render a video from a config and wait for it",
      },
      {
        name: "Validate Config",
        value: "validateConfig",
        action: "Validate a config",
        description: "Check a config without rendering it or spending tokens",
      },
    ],
    default: "renderImage",
  },
  {
    displayName: "Operation",
    name: "operation",
    type: "options",
    noDataExpression: true,
    displayOptions: { show: { resource: ["job"] } },
    options: [
      {
        name: "Download Output",
        value: "downloadOutput",
        action: "Download the output of a job",
        description: "Download the file a completed job rendered",
      },
      { name: "Get", value: "get", action: "Get a job", description: "Get a job by its ID" },
      {
        name: "Get Many",
        value: "getAll",
        action: "Get many jobs",
        description: "List your jobs, newest first",
      },
    ],
    default: "get",
  },
  {
    displayName: "Operation",
    name: "operation",
    type: "options",
    noDataExpression: true,
    displayOptions: { show: { resource: ["file"] } },
    options: [
      {
        name: "Upload",
        value: "upload",
        action: "Upload a file",
        description: "Upload binary data as a file that configs can name",
      },
    ],
    default: "upload",
  },
];

const renderFields: INodeProperties[] = [
  {
    displayName: "Config Type",
    name: "jobType",
    type: "options",
    options: [
      { name: "Image", value: "image" },
      { name: "Video", value: "video" },
    ],
    default: "image",
    description: "Whether the config describes an image or a video",
    displayOptions: show("render", ["validateConfig"]),
  },
  {
    displayName: "Config",
    name: "config",
    type: "json",
    default: EXAMPLE_IMAGE,
    required: true,
    description:
      "The image config (width, height, layers...), as JSON. Files you uploaded are named by their storageUrl.",
    displayOptions: show("render", ["renderImage"]),
  },
  {
    displayName: "Config",
    name: "config",
    type: "json",
    default: EXAMPLE_VIDEO,
    required: true,
    description: "The video config (width, height, clips...), as JSON, in JsonCut's or editly's grammar",
    displayOptions: show("render", ["renderVideo"]),
  },
  {
    displayName: "Config",
    name: "config",
    type: "json",
    default: EXAMPLE_IMAGE,
    required: true,
    description: "The config to check, as JSON",
    displayOptions: show("render", ["validateConfig"]),
  },
  {
    displayName: "Template ID",
    name: "templateId",
    type: "string",
    default: "",
    required: true,
    placeholder: "tpl_...",
    description: "The ID of a template of yours (the console's Templates page, or GET /api/v2/templates)",
    displayOptions: show("render", ["renderTemplate"]),
  },
  {
    displayName: "Variables",
    name: "variables",
    type: "json",
    default: "{}",
    description: 'The template\'s variables as a JSON object, e.g. {"title": "Hello", "colour": "#ff0000"}',
    displayOptions: show("render", ["renderTemplate"]),
  },
  {
    displayName: "Wait for Completion",
    name: "waitForCompletion",
    type: "boolean",
    default: true,
    description:
      "Whether to wait until the job has ended (following its event stream) and output the finished job; otherwise output the job as created",
    displayOptions: show("render", RENDERS),
  },
  {
    displayName: "Download Output",
    name: "downloadOutput",
    type: "boolean",
    default: true,
    description: "Whether to download the rendered file into the item's binary data",
    displayOptions: { show: { resource: ["render"], operation: RENDERS, waitForCompletion: [true] } },
  },
  {
    displayName: "Options",
    name: "options",
    type: "collection",
    placeholder: "Add Option",
    default: {},
    displayOptions: show("render", RENDERS),
    options: [
      {
        displayName: "Binary Property",
        name: "binaryPropertyName",
        type: "string",
        default: "data",
        description: "The binary property to put the rendered file in",
      },
      {
        displayName: "File Name",
        name: "fileName",
        type: "string",
        default: "",
        placeholder: "card.png",
        description: "The name of the output file in n8n (default: the name the service gives it)",
      },
      {
        displayName: "Timeout (Seconds)",
        name: "timeout",
        type: "number",
        typeOptions: { minValue: 0.1, numberPrecision: 1 },
        default: 600,
        description:
          "How long to wait for the job to end. Past it the node fails with the job's ID; the job goes on rendering.",
      },
    ],
  },
];

const jobFields: INodeProperties[] = [
  {
    displayName: "Job ID",
    name: "jobId",
    type: "string",
    default: "",
    required: true,
    placeholder: "job_...",
    displayOptions: show("job", ["get", "downloadOutput"]),
  },
  {
    displayName: "Binary Property",
    name: "binaryPropertyName",
    type: "string",
    default: "data",
    description: "The binary property to put the downloaded file in",
    displayOptions: show("job", ["downloadOutput"]),
  },
  {
    displayName: "Return All",
    name: "returnAll",
    type: "boolean",
    default: false,
    description: "Whether to return all results or only up to a given limit",
    displayOptions: show("job", ["getAll"]),
  },
  {
    displayName: "Limit",
    name: "limit",
    type: "number",
    typeOptions: { minValue: 1 },
    default: 50,
    description: "Max number of results to return",
    displayOptions: { show: { resource: ["job"], operation: ["getAll"], returnAll: [false] } },
  },
  {
    displayName: "Filters",
    name: "filters",
    type: "collection",
    placeholder: "Add Filter",
    default: {},
    displayOptions: show("job", ["getAll"]),
    options: [
      {
        displayName: "Search",
        name: "search",
        type: "string",
        default: "",
        description: "Only jobs whose ID, config or error message contains this text",
      },
      {
        displayName: "Status",
        name: "status",
        type: "options",
        options: [
          { name: "Cancelled", value: "CANCELLED" },
          { name: "Completed", value: "COMPLETED" },
          { name: "Failed", value: "FAILED" },
          { name: "Pending", value: "PENDING" },
          { name: "Processing", value: "PROCESSING" },
        ],
        default: "COMPLETED",
      },
      {
        displayName: "Type",
        name: "type",
        type: "options",
        options: [
          { name: "Image", value: "IMAGE" },
          { name: "Video", value: "VIDEO" },
        ],
        default: "IMAGE",
      },
    ],
  },
];

const fileFields: INodeProperties[] = [
  {
    displayName: "Input Binary Field",
    name: "binaryPropertyName",
    type: "string",
    default: "data",
    required: true,
    description: "The name of the input binary field holding the file to upload",
    displayOptions: show("file", ["upload"]),
  },
  {
    displayName: "Options",
    name: "options",
    type: "collection",
    placeholder: "Add Option",
    default: {},
    displayOptions: show("file", ["upload"]),
    options: [
      {
        displayName: "Category",
        name: "category",
        type: "options",
        options: [
          { name: "Audio", value: "audio" },
          { name: "Font", value: "font" },
          { name: "Image", value: "image" },
          { name: "Video", value: "video" },
        ],
        default: "image",
        description: "What the file must be (its content is checked against it)",
      },
      {
        displayName: "Keep For (Hours)",
        name: "ttlHours",
        type: "number",
        typeOptions: { minValue: 1, maxValue: 720 },
        default: 24,
        description: "How long the service keeps the file",
      },
    ],
  },
];

export const properties: INodeProperties[] = [
  resource,
  ...operations,
  ...renderFields,
  ...jobFields,
  ...fileFields,
];
