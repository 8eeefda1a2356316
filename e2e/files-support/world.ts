/**
 * What the file journeys need, made through the API: a call open now whose proposal type
 * has a form with a PDF field, and an author.
 */
import { adminCredentials } from '../fixtures';
import {
  api,
  createCall,
  createCommittee,
  createForm,
  createFormFrom,
  daysFromNow,
  logInApi,
  registerVerifiedUser,
  type FormDefinition,
  type TestUser,
} from '../calls-support/api';

export const TYPE_NAME = 'Standard';

/** A proposal form with a title and a CV, whose file field takes a PDF. */
export const DOCUMENTS_FORM: FormDefinition = {
  type: 0,
  jsonSchema: {
    type: 'object',
    required: ['title', 'cv'],
    properties: {
      title: { type: 'string', title: 'Project title', maxLength: 200 },
      cv: { type: 'string', format: 'data-url', title: 'CV (PDF)' },
    },
  },
  uiSchema: { 'ui:order': ['title', 'cv'] },
  options: null,
};

export interface FilesWorld {
  call: { id: number; name: string; typeId: number };
  /** The display name of the form with the CV field: the editor's tab. */
  formName: string;
  author: TestUser;
  authorToken: string;
}

export async function createFilesWorld(): Promise<FilesWorld> {
  const tag = Math.random().toString(36).slice(2, 8);
  const adminToken = await logInApi(adminCredentials());
  const formName = `Documents ${tag}`;
  const [author, committeeId, documents, review] = await Promise.all([
    registerVerifiedUser('Ada', `Lovelace${tag}`),
    createCommittee(adminToken, `Files Committee ${tag}`),
    createFormFrom(adminToken, formName, DOCUMENTS_FORM),
    createForm(adminToken, 2, `Files Review ${tag}`),
  ]);
  const name = `Beamtime ${tag}`;
  const id = await createCall(adminToken, {
    committeeId,
    name,
    dates: {
      openDateTime: daysFromNow(-3, 9),
      closeDateTime: daysFromNow(30, 17),
      reviewOpenDateTime: daysFromNow(31, 9),
      reviewCloseDateTime: daysFromNow(60, 17),
    },
    proposalTypes: [
      { typeName: TYPE_NAME, proposalForms: [documents.id], reviewForms: [review.id] },
    ],
  });
  const { proposalTypes } = await api<{ proposalTypes: { typeId: number }[] }>(
    'GET',
    `/calls/${id}/`,
    { token: adminToken },
  );
  return {
    call: { id, name, typeId: proposalTypes[0]!.typeId },
    formName,
    author,
    authorToken: await logInApi(author),
  };
}
